#!/usr/bin/env node
// Regenerates everything in generated/ from the two sources of truth:
//   openapi.yaml   -> generated/openapi.ts  (openapi-typescript)
//   schema.graphql -> generated/graphql.ts  (@graphql-codegen/cli, configured in codegen.ts)
// Never edit generated/ by hand; run `npm run generate` and commit the result.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

run(bin('openapi-typescript'), ['openapi.yaml', '--output', 'generated/openapi.ts', '--alphabetize']);
run(bin('graphql-codegen'), ['--config', 'codegen.ts', '--silent']);
