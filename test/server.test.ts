import { request } from 'node:http';
import path from 'node:path';
import { projectRoot, spawnService, startRefused, startService } from './support/server-process';

/** Polls until `check` holds; the test's timeout guards against a hang. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('the service process (dist/src/server.js)', () => {
  it('when started with PORT, then it serves /health on that port and logs one JSON line per request', async () => {
    const service = await startService();
    try {
      const res = await fetch(`${service.baseUrl}/books/1`, { headers: { 'X-Request-Id': 'trace-42' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toBe('trace-42');
      const lines = () =>
        service
          .output()
          .split('\n')
          .filter((line) => line.startsWith('{') && line.endsWith('}'))
          .map((line) => JSON.parse(line));
      // The line is written when the response closes: waited for, not given a time.
      await until(() => lines().some((line) => line.requestId === 'trace-42'));
      const entry = lines().find((line) => line.requestId === 'trace-42');
      expect(entry).toMatchObject({ msg: 'request', method: 'GET', path: '/books/1', status: 200 });
      expect(typeof entry.durationMs).toBe('number');
    } finally {
      service.child.kill('SIGKILL');
    }
  });

  it('when it gets SIGTERM during a request, then it finishes that request, then exits 0', async () => {
    const service = await startService();
    // A request whose body is still arriving when the signal comes: it is in flight for sure. `Expect:
    // 100-continue` makes the server say when it has the request (Node answers 100 once the head is parsed).
    const req = request(`${service.baseUrl}/books`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': '19', Expect: '100-continue' },
    });
    const continued = new Promise<void>((resolve) => req.once('continue', () => resolve()));
    const answered = new Promise<{ status?: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode, body }));
      });
      req.on('error', reject);
    });
    req.flushHeaders();
    await continued;
    req.write('{"title":');
    service.child.kill('SIGTERM');
    // The service has taken the signal (it says so) while the body is still arriving; then the body ends.
    await until(() => service.output().includes('"msg":"shutting down"'));
    req.end('"Late"}   ');
    const res = await answered;
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body)).toMatchObject({ title: 'Late' });
    expect(await service.exited).toBe(0);
    expect(service.output()).toMatch(/"msg":"stopped"/);
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
  ])('when %s is %p, then it refuses to start with one clear line', async (name, value) => {
    const result = await startRefused({ PORT: '0', [name]: value });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(name === 'SEED' ? 'seed' : name);
  });
});

describe('a signal while the service starts (held at one step of start-up: test/support/hold-start.js)', () => {
  const holdStart = ['--require', path.join(projectRoot, 'test/support/hold-start.js')];

  it.each([
    ['SIGTERM', 'loadConfig'],
    ['SIGTERM', 'createStore'],
    ['SIGTERM', 'createApp'],
    ['SIGINT', 'createApp'],
    ['SIGTERM', 'createHttpServer'],
  ] as const)('when %s arrives during %s, then it stops before listening and exits 0', async (signal, step) => {
    const service = spawnService({ PORT: '0' }, holdStart);
    const held: string[] = [];
    let pending = '';
    service.child.stderr!.on('data', (chunk) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines.filter((text) => text.startsWith('held: '))) {
        held.push(line.slice('held: '.length));
        // kill() returns once the signal is pending in the held process; only then does it go on.
        if (held.at(-1) === step) service.child.kill(signal);
        service.child.stdin!.write('.');
      }
    });
    expect(await service.exited).toBe(0);
    expect(held).toContain(step);
    expect(service.output()).toContain(`"signal":"${signal}","msg":"stopped before listening"`);
    expect(service.output()).not.toContain('"msg":"listening"');
  });
});
