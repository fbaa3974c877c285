import fc from 'fast-check';
import { makeApp, snapshot } from '../support/app';
import { accept, bodyBytes, contentType, idSegment, langSegment, queryString } from './support/arbitraries';
import { listen, type Listening } from './support/http';
import { contractProblems, loadOperations, type SpecOperation } from './support/spec';

const { operations, validate } = loadOperations();
const NUM_RUNS = Number(process.env.HARDENING_RUNS ?? 60);
const BASELINE_PROTOTYPE = Object.getOwnPropertyNames(Object.prototype).sort();
const LEAKS = /node_modules|\/src\/|\/work\/|\bat \w+ \(|\.ts:\d+|Error:/;

interface Case {
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** A request to `op` with generated path parameters, query, headers and body. */
function requestFor(op: SpecOperation): fc.Arbitrary<Case> {
  const segments = op.pathParams.map((p) => (p.name === 'lang' ? langSegment : idSegment));
  const takesBody = op.bodySchema !== undefined;
  return fc
    .record({
      segments: fc.tuple(...segments),
      query: op.queryParams.length ? queryString : fc.constant(''),
      type: contentType,
      accept,
      body: takesBody ? fc.option(bodyBytes, { freq: 8 }) : fc.option(bodyBytes, { freq: 1 }),
    })
    .map(({ segments: values, query, type, accept: acc, body }) => {
      let path = op.template;
      op.pathParams.forEach((p, i) => (path = path.replace(`{${p.name}}`, values[i])));
      const headers: Record<string, string> = {};
      if (type !== undefined) headers['content-type'] = type;
      if (acc !== undefined) headers.accept = acc;
      return { path: path + query, headers, body: body ?? undefined };
    });
}

describe('every REST operation under generated input (openapi.yaml-driven)', () => {
  let app: ReturnType<typeof makeApp>;
  let server: Listening;
  beforeAll(async () => {
    app = makeApp();
    server = await listen(app.app);
  });
  afterAll(() => server.close());

  it.each(operations.map((op) => [`${op.method} ${op.template} (${op.operationId})`, op] as const))(
    'when %s gets random and boundary input, then it answers a documented status and body, never 5xx, and a rejection changes nothing',
    async (_name, op) => {
      await fc.assert(
        fc.asyncProperty(requestFor(op), async (c) => {
          const before = JSON.stringify(await snapshot(app.store));
          const answer = await server.send({ method: op.method, path: c.path, headers: c.headers, body: c.body });
          expect(answer.status).toBeLessThan(500);
          expect(contractProblems(op, answer, validate)).toEqual([]);
          expect(answer.text).not.toMatch(LEAKS);
          if (answer.status >= 400) expect(JSON.stringify(await snapshot(app.store))).toBe(before);
          expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(BASELINE_PROTOTYPE);
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        }),
        { numRuns: NUM_RUNS, endOnFailure: true },
      );
    },
  );

  it('when the whole generated run is over, then the server still answers and the prototype is clean', async () => {
    const answer = await server.send({ method: 'GET', path: '/health' });
    expect(answer.status).toBe(200);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(BASELINE_PROTOTYPE);
  });
});
