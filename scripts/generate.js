#!/usr/bin/env node
// `npm run generate`: regenerates everything in generated/ from the two sources of truth (openapi.yaml,
// schema.graphql), with the code `npm run dev` runs on each spec save (scripts/codegen.js).
// Never edit generated/ by hand; run `npm run generate` and commit the result.
const path = require('node:path');
const { createCodegen } = require('./codegen');

const root = path.resolve(__dirname, '..');

async function main() {
  const codegen = createCodegen(root);
  const written = [...(await codegen.openapi()), ...(await codegen.graphql())];
  process.stdout.write(written.length ? `generate: wrote ${written.join(', ')}\n` : 'generate: generated/ is up to date\n');
}

main().catch((err) => {
  process.stderr.write(`generate failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
