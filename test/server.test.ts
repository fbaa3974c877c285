import { spawn, spawnSync } from 'node:child_process';
import { request } from 'node:http';
import path from 'node:path';
import { projectRoot, serviceEnv, startService } from './support/server-process';

describe('the service process (dist/src/server.js)', () => {
  it('when started with PORT, then it serves /health on that port and logs one JSON line per request', async () => {
    const service = await startService();
    try {
      const res = await fetch(`${service.baseUrl}/books/1`, { headers: { 'X-Request-Id': 'trace-42' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toBe('trace-42');
      await new Promise((r) => setTimeout(r, 100));
      const lines = service
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line));
      const entry = lines.find((line) => line.requestId === 'trace-42');
      expect(entry).toMatchObject({ msg: 'request', method: 'GET', path: '/books/1', status: 200 });
      expect(typeof entry.durationMs).toBe('number');
    } finally {
      service.child.kill('SIGKILL');
    }
  });

  it('when it gets SIGTERM during a request, then it finishes that request, then exits 0', async () => {
    const service = await startService();
    // A request whose body is still arriving when the signal comes: it is in flight for sure.
    const req = request(`${service.baseUrl}/books`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': '19' },
    });
    const answered = new Promise<{ status?: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode, body }));
      });
      req.on('error', reject);
    });
    req.write('{"title":');
    await new Promise((r) => setTimeout(r, 200));
    service.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    req.end('"Late"}   ');
    const res = await answered;
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body)).toMatchObject({ title: 'Late' });
    expect(await service.exited).toBe(0);
    expect(service.output()).toMatch(/"msg":"stopped"/);
  });

  it('when it gets SIGTERM while still starting, then it exits 0', async () => {
    const service = serviceEnv({ PORT: '0', LOG_LEVEL: 'info' });
    const child = spawn(process.execPath, [path.join(projectRoot, 'dist/src/server.js')], {
      cwd: projectRoot,
      env: service.env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    void exited.then(service.remove);
    let output = '';
    // The signal goes as soon as the first log line says it is starting: before it listens.
    await new Promise<void>((resolve) =>
      child.stdout!.on('data', (chunk) => {
        output += chunk;
        if (output.includes('"msg":"starting"')) resolve();
      }),
    );
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).not.toContain('"msg":"listening"');
  });

  it('when it gets SIGINT, then it exits 0', async () => {
    const service = await startService();
    service.child.kill('SIGINT');
    expect(await service.exited).toBe(0);
  });

  it.each([
    ['PORT', 'eighty'],
    ['LOG_LEVEL', 'loud'],
    ['BODY_LIMIT', '10 parsecs'],
    ['GRAPHQL_MAX_DEPTH', '0'],
    ['DATABASE_URL', 'mysql://nope'],
    ['SEED', '/nonexistent/seed.json'],
    ['STORE', 'mongodb'],
    ['SQLITE_FILE', ':memory:'],
  ])('when %s is %p, then it refuses to start with one clear line', (name, value) => {
    const service = serviceEnv({ PORT: '0', [name]: value });
    const result = spawnSync(process.execPath, [path.join(projectRoot, 'dist/src/server.js')], {
      cwd: projectRoot,
      env: service.env,
      encoding: 'utf8',
      timeout: 15000,
    });
    service.remove();
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(name === 'SEED' ? 'seed' : name);
  });
});
