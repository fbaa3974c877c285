import { makeApp } from '../support/app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const requestLines = (logs: Record<string, unknown>[]) => logs.filter((line) => line.msg === 'request');

describe('request logs', () => {
  it('when requests are served, then each writes exactly one JSON line with method, path, status, durationMs and requestId', async () => {
    const { http, logs } = makeApp();
    const ok = await http.get('/books/1?').expect(200);
    const created = await http.post('/tasks').send({ title: 'Log me' }).expect(201);
    const missing = await http.get('/nowhere').expect(404);
    const lines = requestLines(logs);
    expect(lines).toHaveLength(3);
    expect(lines.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      { method: 'GET', path: '/books/1', status: 200 },
      { method: 'POST', path: '/tasks', status: 201 },
      { method: 'GET', path: '/nowhere', status: 404 },
    ]);
    [ok, created, missing].forEach((res, i) => expect(lines[i].requestId).toBe(res.headers['x-request-id']));
    for (const line of lines) {
      expect(typeof line.durationMs).toBe('number');
      expect(line.durationMs as number).toBeGreaterThanOrEqual(0);
      expect(line.level).toBe('info');
      expect(typeof line.time).toBe('string');
    }
  });

  it('when a request is rejected (400, 405, 413, 415), then it is still logged once with its status', async () => {
    const { http, logs } = makeApp({ config: { bodyLimit: 32 } });
    await http.get('/books/abc').expect(400);
    await http.post('/notes').send({}).expect(405);
    await http.post('/books').send({ title: 'x'.repeat(64) }).expect(413);
    await http.post('/books').set('Content-Type', 'text/plain').send('x').expect(415);
    expect(requestLines(logs).map((line) => line.status)).toEqual([400, 405, 413, 415]);
  });

  it('when HEAD is sent, then the log line says HEAD (not the GET it was served as)', async () => {
    const { http, logs } = makeApp();
    await http.head('/books').expect(200);
    expect(requestLines(logs)[0]).toMatchObject({ method: 'HEAD', path: '/books', status: 200 });
  });

  it('when the query string carries data, then the logged path leaves it out', async () => {
    const { http, logs } = makeApp();
    await http.get('/books?limit=1').expect(200);
    expect(requestLines(logs)[0].path).toBe('/books');
  });
});

describe('X-Request-Id', () => {
  it('when the client sends a sane X-Request-Id, then it is returned and logged as is', async () => {
    const { http, logs } = makeApp();
    const res = await http.get('/health').set('X-Request-Id', 'trace-42.abc:1').expect(200);
    expect(res.headers['x-request-id']).toBe('trace-42.abc:1');
    expect(requestLines(logs)[0].requestId).toBe('trace-42.abc:1');
  });

  it('when the client sends none, then a UUID is generated, returned and logged', async () => {
    const { http, logs } = makeApp();
    const res = await http.get('/health').expect(200);
    expect(res.headers['x-request-id']).toMatch(UUID);
    expect(requestLines(logs)[0].requestId).toBe(res.headers['x-request-id']);
  });

  it('when two requests carry none, then they get different ids', async () => {
    const { http } = makeApp();
    const a = (await http.get('/health')).headers['x-request-id'];
    const b = (await http.get('/health')).headers['x-request-id'];
    expect(a).not.toBe(b);
  });

  it.each([['too long', 'x'.repeat(129)], ['spaces', 'a b'], ['quotes', 'a"b'], ['empty', '']])(
    'when the client id is unsafe (%s), then it is replaced by a generated UUID',
    async (_label, given) => {
      const { http, logs } = makeApp();
      const res = await http.get('/health').set('X-Request-Id', given).expect(200);
      expect(res.headers['x-request-id']).toMatch(UUID);
      expect(requestLines(logs)[0].requestId).toBe(res.headers['x-request-id']);
    },
  );

  it('when an error answers, then it carries the request id too', async () => {
    const { http } = makeApp();
    const res = await http.get('/items/42').set('X-Request-Id', 'err-1').expect(404);
    expect(res.headers['x-request-id']).toBe('err-1');
  });
});
