'use strict';
// node bench/lib/execution-probe.js DIST_SRC SEED_FILE QUERY [WITH_JSON] [SAMPLES]: runs QUERY in-process
// through a build's own executor (dist/src/graphql/execution.js: compiled by graphql-jit, as the service
// runs a hot query) with a fresh context per run (its loaders), over that build's memory store, and prints
// the median µs of CPU per run (user and system time: a run descheduled by other work on the host does not count)
// of SAMPLES samples as JSON. WITH_JSON=1 adds the answer's serialisation (a plain
// JSON.stringify, as the endpoint writes a clean result). No HTTP: what the store, the loaders and the
// resolvers cost, without the noise of the rest. bench/execution.js runs it for two builds alternately.
const { readFileSync } = require('node:fs');

const [dist, seedPath, query, withJson = '0', samplesArg = '7'] = process.argv.slice(2);
// The graphql the build runs on, not the benchmark peers' copy (bench/node_modules).
const { parse } = require(require.resolve('graphql', { paths: [dist] }));
const { buildSchema } = require(`${dist}/graphql/schema`);
const { createExecutor } = require(`${dist}/graphql/execution`);
const { createContext } = require(`${dist}/graphql/context`);
const { createMemoryStore } = require(`${dist}/store/memory`);
const { validateSeed } = require(`${dist}/store/seed`);
// A build whose results have a budget (src/graphql/large-answers.ts) gets one per run, as the endpoint gives each request.
const budget = (() => {
  try {
    const { LargeAnswers } = require(`${dist}/graphql/large-answers`);
    const answers = new LargeAnswers({ maxItems: 20000, slots: 4, waitMs: 2000 });
    return () => answers.budget();
  } catch {
    return () => undefined;
  }
})();

// A build whose resolvers read the text rule from the context (src/text-rule.ts) gets it, read from its spec.
const text = (() => {
  try {
    const { textLimits } = require(`${dist}/text-rule`);
    const { loadOpenApi } = require(`${dist}/spec`);
    return textLimits ? textLimits(loadOpenApi()) : undefined;
  } catch {
    return undefined;
  }
})();

const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
const store = createMemoryStore(validateSeed(JSON.parse(readFileSync(seedPath, 'utf8'))));
const schema = buildSchema();
const executor = createExecutor(schema, { cacheSize: 10, compileAfter: 1 });
const document = parse(query);

async function runOnce() {
  const result = await executor.execute({ schema, document, contextValue: createContext(store, silent, budget(), text) });
  if (result.errors || !result.data) throw new Error(`the query failed: ${JSON.stringify(result.errors)}`);
  if (withJson === '1') JSON.stringify(result);
}

/** µs of CPU per run over `n` runs. */
async function sample(n) {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i += 1) await runOnce();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

async function main() {
  // Warm up (compiles the query after its first run, then lets V8 optimise) for about a second; a sample is then
  // about 0.2 s of runs, sized from a warm run (the first runs, cold, are many times slower).
  let n = Math.max(200, Math.round(200000 / (await sample(200))));
  for (let i = 0; i < 3; i += 1) n = Math.max(200, Math.round(200000 / (await sample(n))));
  const samples = [];
  for (let i = 0; i < Number(samplesArg); i += 1) samples.push(await sample(n));
  samples.sort((a, b) => a - b);
  if (executor.stats.compiledRuns === 0) throw new Error('the query never ran compiled');
  process.stdout.write(JSON.stringify({ us: samples[Math.floor(samples.length / 2)] }));
}

main().catch((e) => {
  console.error(e.message);
  process.exitCode = 1;
});
