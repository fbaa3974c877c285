// Where a profile's time went, by concern (bench/lib/concerns.js) and in its summary (bench/lib/cpuprofile.js), on a profile made up here: nothing is run or timed.
const { byConcern, concernOf, NODE_CORE } = require('../../bench/lib/concerns');

type Frame = { functionName: string; url: string };
const frame = (functionName: string, url = ''): Frame => ({ functionName, url });

/**
 * A profile whose samples are the given stacks (outermost frame first), each sample 10 µs after the one before;
 * `(idle)` stacks are idle samples. A sample counts until the next, so an idle one ends the profile.
 */
function profileOf(given: Frame[][]) {
  const stacks = [...given, [frame('(idle)')]];
  const nodes: { id: number; callFrame: Frame & { lineNumber: number; columnNumber: number; scriptId: string }; children: number[] }[] = [];
  const root = { id: 1, callFrame: { ...frame('(root)'), lineNumber: -1, columnNumber: -1, scriptId: '0' }, children: [] as number[] };
  nodes.push(root);
  const leafOf = (stack: Frame[]) => {
    let parent = root;
    for (const f of stack) {
      let child = nodes.find((n) => parent.children.includes(n.id) && n.callFrame.functionName === f.functionName && n.callFrame.url === f.url);
      if (!child) {
        child = { id: nodes.length + 1, callFrame: { ...f, lineNumber: 0, columnNumber: 0, scriptId: '1' }, children: [] };
        nodes.push(child);
        parent.children.push(child.id);
      }
      parent = child;
    }
    return parent.id;
  };
  return { nodes, startTime: 0, endTime: stacks.length * 10, samples: stacks.map(leafOf), timeDeltas: stacks.map(() => 10) };
}

const SERVER = frame('emit', 'node:_http_server');
const EXPRESS = frame('handle', 'file:///app/node_modules/express/lib/application.js');
const PINO = frame('_asJson', 'file:///app/node_modules/pino/lib/tools.js');

describe('the concern of a sample', () => {
  it('when its innermost frame has a concern, then the sample is that concern (pino under express is logging)', () => {
    expect(byConcern(profileOf([[SERVER, EXPRESS, PINO], [SERVER, EXPRESS, PINO], [SERVER, EXPRESS]]), { requests: 2 })).toEqual({
      logging: 10,
      'routing, phases, framework': 5,
    });
  });

  it('when its innermost frames have none (Node\'s own, a native call), then the nearest frame that has one decides', () => {
    const native = frame('writev');
    const streams = frame('writevGeneric', 'node:internal/stream_base_commons');
    const tick = frame('processTicksAndRejections', 'node:internal/process/task_queues');
    expect(byConcern(profileOf([[SERVER, streams, native], [SERVER, EXPRESS, tick], [tick, frame('someNative')]]), { requests: 1 })).toEqual({
      'socket write': 10,
      'routing, phases, framework': 10,
      [NODE_CORE]: 10,
    });
  });

  it('when the innermost frame is a native write, then it counts under its caller: the log\'s write is logging, the socket\'s the socket write', () => {
    const sonic = frame('write', 'file:///app/node_modules/sonic-boom/index.js');
    const fsWrite = frame('writeSync', 'node:fs');
    const streams = frame('writevGeneric', 'node:internal/stream_base_commons');
    expect(byConcern(profileOf([[SERVER, PINO, sonic, fsWrite, frame('writeString')], [SERVER, streams, frame('writev')]]), { requests: 1 })).toEqual({
      logging: 10,
      'socket write': 10,
    });
  });

  it('when no frame on its stack has a concern and none is Node\'s, then it is other', () => {
    expect(byConcern(profileOf([[frame('main', 'file:///elsewhere/tool.js')]]), { requests: 1 })).toEqual({ other: 10 });
  });

  it('when samples are idle or within the first skipMs, then they are left out, and the rest is per request', () => {
    const stacks = [[SERVER, PINO], [SERVER, PINO], [frame('(idle)')], [SERVER, PINO], [SERVER, PINO]];
    // Sample times: 10, 20, 30, 40 and 50 µs; skipping 0.025 ms leaves out the first two.
    expect(byConcern(profileOf(stacks), { skipMs: 0.025, requests: 2 })).toEqual({ logging: 10 });
  });

  it('when samples come after the window the load was measured in (the server\'s shutdown), then they are left out', () => {
    const stacks = [[SERVER, PINO], [SERVER, EXPRESS], [SERVER, EXPRESS]];
    // Sample times: 10, 20 and 30 µs; the window ends at 0.015 ms.
    expect(byConcern(profileOf(stacks), { untilMs: 0.015, requests: 1 })).toEqual({ logging: 10 });
  });
});

describe('the concern of a frame', () => {
  it.each([
    [frame('validate', 'file:///app/node_modules/express-openapi-validator/dist/middlewares/openapi.request.validator.js'), 'request validation'],
    [frame('observe', 'file:///app/node_modules/prom-client/lib/histogram.js'), 'metrics'],
    [frame('answerOf', 'file:///app/dist/src/graphql/endpoint.js'), 'serialisation'],
    [frame('anonymous1'), 'serialisation'],
    [frame('handler', 'file:///app/node_modules/graphql-http/lib/handler.js'), 'GraphQL transport'],
    [frame('Query__fieldbooksMapHandler'), 'GraphQL execution'],
    [frame('safeMap', 'file:///app/node_modules/graphql-jit/dist/runtime.js'), 'GraphQL execution'],
    [frame('parse', 'file:///app/node_modules/graphql/language/parser.js'), 'GraphQL parse and validate'],
    [frame('list', 'file:///app/dist/src/store/sql/collection.js'), 'store'],
    [frame('setHeader', 'node:_http_outgoing'), 'response headers'],
    [frame('(garbage collector)'), 'GC'],
  ])('%j is %s', (f, concern) => {
    expect(concernOf(f)).toBe(concern);
  });

  it('when a frame is Node\'s own and none of the above, then it has no concern of its own', () => {
    expect(concernOf(frame('emit', 'node:events'))).toBeUndefined();
  });
});

describe('the summary of a profile (bench/lib/cpuprofile.js), as BENCHMARKS.md prints it', () => {
  const { summarise } = require('../../bench/lib/cpuprofile');

  it('when a window is given, then only its samples count: those before it (start-up) and after it (shutdown) are left out', () => {
    const stacks = [[SERVER, PINO], [SERVER, EXPRESS], [SERVER, EXPRESS], [SERVER, PINO]];
    // Sample times: 10, 20, 30 and 40 µs; the window from 0.015 to 0.035 ms holds the two express samples.
    const inWindow = summarise(profileOf(stacks), 5, 0.015, 0.035);
    expect(inWindow.busyMs).toBeCloseTo(0.02);
    expect(inWindow.functions.map((f: { name: string }) => f.name)).toEqual(['handle express:1']);
    expect(summarise(profileOf(stacks), 5).busyMs).toBeCloseTo(0.04);
  });
});
