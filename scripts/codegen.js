// Code generation from the two sources of truth, through the generators' own programmatic APIs:
//   openapi.yaml   -> generated/openapi.ts  (openapi-typescript, as its CLI runs with --alphabetize and
//                                            redocly.yaml, the same lint config as `npm run lint:openapi`)
//   schema.graphql -> generated/graphql.ts  (@graphql-codegen/cli, configured in codegen.ts)
// One code path for `npm run generate` (scripts/generate.js, a process per run) and `npm run dev`
// (scripts/dev.js, which keeps the generators loaded and calls them on each spec save), so both
// write the same bytes and `npm run generate:check` holds either way.
// A file is written only when its text changes: an unchanged output does not wake the watchers.
// Before either writes, `check()` refuses specs the project cannot use (scripts/spec-refusals.js): openapi.yaml's
// lint errors (redocly.yaml, the rules `npm run lint:openapi` applies), then what the service's own start-up
// checks find in the specs (src/startup/contract-check.ts), then the project's seed (seed/default.json) if it no
// longer fits them (src/store/seed.ts's check); the service's modules run from source (scripts/source-loader.js).
const { existsSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { parseDocument } = require('yaml');
const { requireSources } = require('./source-loader');
const { contractRefusal, lintRefusal, seedRefusal } = require('./spec-refusals');

const OUTPUTS = { openapi: 'generated/openapi.ts', graphql: 'generated/graphql.ts' };

/** Writes `text` to `file` unless it already holds it; true when it wrote. */
function writeIfChanged(file, text) {
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return false;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text, 'utf8');
  return true;
}

/**
 * The generators for the project at `root`, loaded once. `check()` refuses specs that cannot be used (above),
 * with the service's modules loaded by `loadSources(names)` (project-relative, without extension; by default from
 * source, scripts/source-loader.js; `npm run dev` loads its own compiled output);
 * `openapi()` and `graphql()` each regenerate
 * one output and resolve to the project-relative paths written (empty when the text did not change);
 * they reject with the generator's error when a spec is not valid.
 */
function createCodegen(root, { loadSources = (files) => requireSources(root, files) } = {}) {
  let openapiTools;
  let graphqlTools;

  async function loadOpenapiTools() {
    // openapi-typescript's CLI: its ESM entry, and the Redocly config found from the project root.
    const ots = await import('openapi-typescript');
    const redoclyCore = require(require.resolve('@redocly/openapi-core', { paths: [path.dirname(require.resolve('openapi-typescript/package.json'))] }));
    const configPath = redoclyCore.findConfig(root);
    const redocly = configPath ? await redoclyCore.loadConfig({ configPath }) : await redoclyCore.createConfig({}, { extends: ['minimal'] });
    return { ots, redocly, redoclyCore };
  }

  /**
   * Resolves when the specs on disk can be used; rejects with a SpecRefusal (scripts/spec-refusals.js: a title and
   * one line per place to change) when openapi.yaml breaks a lint rule, the contract could not be served as
   * written, or seed/default.json does not fit it (a memory store, and every new database, loads it at start: the
   * seed is met here, before any store's stored records are). Generates nothing.
   */
  async function check() {
    openapiTools ??= loadOpenapiTools();
    const { redocly, redoclyCore } = await openapiTools;
    const file = path.join(root, 'openapi.yaml');
    const document = redoclyCore.makeDocumentFromString(readFileSync(file, 'utf8'), file);
    const problems = await redoclyCore.lintDocument({ document, config: redocly.styleguide, externalRefResolver: new redoclyCore.BaseResolver(redocly.resolve) });
    const lint = lintRefusal(document.parsed, problems, (problem) => redoclyCore.getLineColLocation(problem.location[0]).start);
    if (lint) throw lint;
    const [{ specProblems }, { loadOpenApi, loadGraphqlSdl }, { buildModel }, { validateSeed }] = loadSources(
      ['src/startup/contract-check', 'src/spec', 'src/store/model', 'src/store/seed'].map((name) => path.join(...name.split('/'))),
    );
    const [doc, sdl] = [loadOpenApi(), loadGraphqlSdl()];
    const refusal = contractRefusal(specProblems(doc, sdl));
    if (refusal) throw refusal;
    const seedFile = path.join('seed', 'default.json');
    const model = buildModel(doc, sdl);
    const parents = new Set([...model.resources.values()].flatMap((resource) => resource.fields.map((field) => field.parent).filter(Boolean)));
    const text = readFileSync(path.join(root, seedFile), 'utf8');
    const located = parseDocument(text); // JSON is YAML: its nodes know where they start
    const lineOf = (name, index) => {
      const start = located.getIn([name, index], true)?.range?.[0];
      return start === undefined ? undefined : text.slice(0, start).split('\n').length;
    };
    const seed = seedRefusal(seedFile, JSON.parse(text), { validate: (data) => validateSeed(data, seedFile, model), isParent: (name) => parents.has(name), lineOf });
    if (seed) throw seed;
  }

  async function openapi() {
    openapiTools ??= loadOpenapiTools();
    const { ots, redocly } = await openapiTools;
    const ast = await ots.default(pathToFileURL(path.join(root, 'openapi.yaml')), { alphabetize: true, redocly, silent: true });
    const text = `${ots.COMMENT_HEADER}${ots.astToString(ast)}`;
    return writeIfChanged(path.join(root, OUTPUTS.openapi), text) ? [OUTPUTS.openapi] : [];
  }

  async function loadGraphqlTools() {
    const codegenCli = require('@graphql-codegen/cli');
    const loaded = await codegenCli.loadCodegenConfig({ configFilePath: path.join(root, 'codegen.ts') });
    return { codegenCli, config: loaded.config };
  }

  async function graphql() {
    graphqlTools ??= loadGraphqlTools();
    const { codegenCli, config } = await graphqlTools;
    // In memory (saveToFile false), then written here. The schema and the plugins are found from the
    // project root, whatever the working directory.
    const pluginLoader = (name) => require(require.resolve(name, { paths: [root] }));
    const outputs = await codegenCli.generate({ ...config, silent: true, schema: resolveSchema(config.schema), pluginLoader }, false);
    const written = [];
    for (const output of outputs) {
      const file = path.resolve(root, output.filename);
      if (writeIfChanged(file, output.content)) written.push(path.relative(root, file));
    }
    return written;
  }

  /** codegen.ts names the schema relative to the project root; the generator resolves it from the working directory. */
  function resolveSchema(schema) {
    return typeof schema === 'string' && !path.isAbsolute(schema) ? path.join(root, schema) : schema;
  }

  return { check, openapi, graphql, outputs: OUTPUTS };
}

module.exports = { createCodegen };
