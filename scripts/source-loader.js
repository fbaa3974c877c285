// Loads the project's own TypeScript modules (src/, generated/) into this process without a build, for the
// checks that must run where there is no build yet, or none that can be trusted: `npm run generate` checks the
// specs with the service's own start-up checks (src/startup/) before it writes generated/, and `npm start`
// names what the contract lacks when the build failed. Each file is compiled on its own when it is required,
// with the project's compiler options (TypeScript's transpileModule, as `npm run dev` compiles: types are not
// checked), so these scripts run the service's code, not a copy of it.
const { readFileSync } = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const { readCompilerOptions } = require('./dev/transpile');

/**
 * `require()` of each of `files` (project-relative module names: `src/spec`), with the project's `.ts` files compiled as they are
 * required; resolves to their exports, in order. Modules loaded from `root`'s TypeScript by an earlier call are
 * loaded again (a long-lived process, such as `npm run dev`, sees today's sources). Packages load as usual.
 */
function requireSources(root, files) {
  const ts = require(require.resolve('typescript', { paths: [root] }));
  const options = { ...readCompilerOptions(root), sourceMap: false, inlineSourceMap: true, inlineSources: false, declaration: false, noEmit: false };
  const own = (filename) => filename.startsWith(root + path.sep) && !filename.includes(`${path.sep}node_modules${path.sep}`);
  for (const loaded of Object.keys(require.cache)) if (own(loaded) && /\.ts$/.test(loaded)) delete require.cache[loaded];
  const previous = Module._extensions['.ts'];
  Module._extensions['.ts'] = (module, filename) => {
    if (!own(filename)) {
      if (previous) return previous(module, filename);
      throw new Error(`cannot load ${filename}: not a file of this project`);
    }
    const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), { compilerOptions: options, fileName: filename });
    module._compile(outputText, filename);
  };
  try {
    return files.map((file) => require(path.resolve(root, file)));
  } finally {
    if (previous) Module._extensions['.ts'] = previous;
    else delete Module._extensions['.ts'];
  }
}

module.exports = { requireSources };
