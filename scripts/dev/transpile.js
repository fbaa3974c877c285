// The dev loop's compiler: each TypeScript file on its own (ts.transpileModule, in this process), with
// the project's compiler options (tsconfig.json), into the dev output folder. Types are not looked at
// here (the type-checker beside it, scripts/dev/typecheck.js, reports them); a file that does not parse
// is reported with its line and is not written, so the last good output stays.
const { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

/** The project's compiler options as tsc reads them (tsconfig.json, its `extends` included). */
function readCompilerOptions(root) {
  const configPath = path.join(root, 'tsconfig.json');
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } };
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, host);
  return parsed.options;
}

/** `file:line:col message` for a diagnostic (relative to root). */
function describe(root, diagnostic, fallbackFile) {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  const file = diagnostic.file ? diagnostic.file.fileName : fallbackFile;
  let where = path.relative(root, file);
  if (diagnostic.file && diagnostic.start !== undefined) {
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    where += `:${line + 1}:${character + 1}`;
  }
  return `${where} ${message}`;
}

/**
 * A compiler for the project at `root` writing into `outDir` (the same layout as tsc: `src/app.ts` ->
 * `<outDir>/src/app.js`, with a source map).
 */
function createTranspiler(root, outDir) {
  const options = { ...readCompilerOptions(root), outDir, rootDir: root, sourceMap: true, inlineSourceMap: false, declaration: false, noEmit: false };
  const outputOf = (file) => path.join(outDir, path.relative(root, file)).replace(/\.(m|c)?tsx?$/, (ext) => ext.replace('ts', 'js').replace('x', ''));

  /**
   * Compiles one file. Returns { errors } (syntax errors, each `file:line:col message`; nothing written
   * then) or { changed } (false when the output was already what it compiles to: a change to types only).
   */
  function compile(file) {
    const text = readFileSync(file, 'utf8');
    const result = ts.transpileModule(text, { compilerOptions: options, fileName: file, reportDiagnostics: true });
    const errors = (result.diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error);
    if (errors.length) return { errors: errors.map((d) => describe(root, d, file)) };
    const out = outputOf(file);
    mkdirSync(path.dirname(out), { recursive: true });
    // The map names the source relative to the output, as tsc does, so stack traces point at the .ts file.
    const map = JSON.parse(result.sourceMapText);
    map.sources = [path.relative(path.dirname(out), file)];
    map.file = path.basename(out);
    const code = result.outputText.replace(/\/\/# sourceMappingURL=.*$/m, `//# sourceMappingURL=${path.basename(out)}.map`);
    writeFileSync(`${out}.map`, JSON.stringify(map));
    if (readOutput(out) === code) return { changed: false };
    writeFileSync(out, code);
    return { changed: true };
  }

  const readOutput = (file) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  };

  /** Removes a deleted source's output. */
  function remove(file) {
    const out = outputOf(file);
    rmSync(out, { force: true });
    rmSync(`${out}.map`, { force: true });
  }

  /** True when the file's output is missing or older than it (the map is written at each compile, the code only when it changes). */
  function isStale(file) {
    const out = outputOf(file);
    const map = statSync(`${out}.map`, { throwIfNoEntry: false });
    return !map || !statSync(out, { throwIfNoEntry: false }) || map.mtimeMs < statSync(file).mtimeMs;
  }

  return { compile, remove, isStale, outputOf };
}

/** Is this a file the transpiler compiles (TypeScript, not a declaration file)? */
const isTypeScript = (file) => /\.(m|c)?tsx?$/.test(file) && !/\.d\.(m|c)?ts$/.test(file);

module.exports = { createTranspiler, isTypeScript, readCompilerOptions };
