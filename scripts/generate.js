#!/usr/bin/env node
// `npm run generate`: regenerates everything in generated/ from the two sources of truth (openapi.yaml,
// schema.graphql), with the code `npm run dev` runs on each spec save (scripts/codegen.js).
// Never edit generated/ by hand; run `npm run generate` and commit the result.
// Specs the project cannot use (a lint error, a contract the service would refuse) are refused first, with
// what to change, one line each, and nothing is written (scripts/codegen.js, check).
const path = require('node:path');
const { createCodegen } = require('./codegen');
const { SpecRefusal } = require('./spec-refusals');

const root = path.resolve(__dirname, '..');

async function main() {
  const codegen = createCodegen(root);
  await codegen.check();
  const written = [...(await codegen.openapi()), ...(await codegen.graphql())];
  process.stdout.write(written.length ? `generate: wrote ${written.join(', ')}\n` : 'generate: generated/ is up to date\n');
}

main().catch((err) => {
  if (err instanceof SpecRefusal) process.stderr.write(`generate: refused, generated/ is unchanged: ${err.message}\n`);
  else process.stderr.write(`generate failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
