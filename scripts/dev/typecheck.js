// The dev loop's type-checker, a child process of scripts/dev.js so its work never delays a restart:
// TypeScript's watch API over tsconfig.json (what `npm run typecheck` checks: src, generated, tests,
// scripts), with a semantic-diagnostics builder, so a save re-checks only the files it affects.
// It does not watch the disk itself: the parent's watcher sends each change (`{ events: [{ type, path }] }`)
// and this process calls the callbacks TypeScript registered for that path. Its state is kept in
// <outDir>/typecheck.tsbuildinfo, so the next `npm run dev` starts from it.
// Prints one line per error, `file:line:col error TSnnnn: message`, then `[types] ok` or the count.
const path = require('node:path');
const ts = require('typescript');

const [root, outDir] = process.argv.slice(2);
const COLOR = process.env.DEV_COLOR === '1';
const paint = (code) => (text) => (COLOR ? `\x1b[${code}m${text}\x1b[0m` : text);
const [magenta, red, green] = [paint(35), paint(31), paint(32)];
const say = (msg) => process.stdout.write(`${magenta('[types]')} ${msg}\n`);

/** Watch callbacks by path, fed by the parent's events instead of the file system. */
const fileWatchers = new Map();
const dirWatchers = new Map();
const register = (map, key, entry) => {
  if (!map.has(key)) map.set(key, new Set());
  map.get(key).add(entry);
  return { close: () => map.get(key)?.delete(entry) };
};
const normalize = (file) => path.resolve(file);

const system = {
  ...ts.sys,
  watchFile: (file, callback) => register(fileWatchers, normalize(file), callback),
  watchDirectory: (dir, callback, recursive) => register(dirWatchers, normalize(dir), { callback, recursive: Boolean(recursive) }),
  // TypeScript waits 250 ms after a change before it rebuilds; the parent has already let the save settle.
  setTimeout: (callback, ms, ...args) => setTimeout(callback, Math.min(ms, 10), ...args),
  clearTimeout: (timer) => clearTimeout(timer),
  write: () => undefined,
};

let changedAt;
/** Set by each change the parent sends: a check under way stops between two files and starts over. */
let changedSince = false;
/** TypeScript files of the last change. */
let lastSaved = [];

const describe = (d) => {
  const message = ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n').join('\n    ');
  let where = d.file ? path.relative(root, d.file.fileName) : '';
  if (d.file && d.start !== undefined) {
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    where += `:${line + 1}:${character + 1}`;
  }
  return `  ${where ? `${where} ` : ''}${red(`error TS${d.code}`)}: ${message}`;
};
const errorsOf = (diagnostics) => diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);

/**
 * Checks what the change affects one file at a time, the saved files first, printing each file's errors
 * as soon as it is checked; between two files it lets a newer change in. Then the summary, with the
 * errors of files this round did not need to check.
 */
function check(builder) {
  changedSince = false;
  const printed = new Set();
  const print = (diagnostics) => {
    for (const d of errorsOf(diagnostics)) {
      const line = describe(d);
      if (printed.has(line)) continue;
      if (!printed.size) say(red('type errors:'));
      printed.add(line);
      process.stdout.write(`${line}\n`);
    }
  };
  // The files just saved come first, before what earlier changes still have to check.
  for (const file of lastSaved) {
    const source = builder.getProgram().getSourceFile(file);
    if (source) print(builder.getSemanticDiagnostics(source));
  }
  lastSaved = [];
  const step = () => {
    if (changedSince) return; // the watch program builds again, and calls check again
    const deadline = Date.now() + 50;
    let next;
    while ((next = builder.getSemanticDiagnosticsOfNextAffectedFile())) {
      print(next.result);
      if (Date.now() > deadline) return setImmediate(step);
    }
    summary(builder, printed);
  };
  step();
}

function summary(builder, printed) {
  const program = builder.getProgram();
  const errors = errorsOf([
    ...builder.getConfigFileParsingDiagnostics(),
    ...builder.getOptionsDiagnostics(),
    ...builder.getGlobalDiagnostics(),
    ...builder.getSyntacticDiagnostics(),
    ...builder.getSemanticDiagnostics(), // all cached by now
  ]);
  builder.emit(); // with noEmit: writes the build info only
  const took = changedAt ? ` (${Date.now() - changedAt} ms after the save)` : '';
  changedAt = undefined;
  if (!errors.length) return say(green(`ok: ${program.getRootFileNames().length} files${took}`));
  const rest = errors.map(describe).filter((line) => !printed.has(line));
  if (rest.length) {
    say(red(printed.size ? 'and, in files this change did not affect:' : 'type errors:'));
    for (const line of rest) process.stdout.write(`${line}\n`);
  }
  say(red(`${errors.length} type error${errors.length > 1 ? 's' : ''}${took}`));
}

const host = ts.createWatchCompilerHost(
  path.join(root, 'tsconfig.json'),
  // removeComments: a file whose comments alone changed (a description in a spec) does not make the
  // files that import it checked again.
  { noEmit: true, incremental: true, tsBuildInfoFile: path.join(outDir, 'typecheck.tsbuildinfo'), removeComments: true },
  system,
  ts.createSemanticDiagnosticsBuilderProgram,
  () => undefined, // diagnostics are reported by afterProgramCreate, all at once
  () => undefined, // and so is the status
);
host.afterProgramCreate = check;
ts.createWatchProgram(host);

/** Calls what TypeScript registered for a changed path: the file's watchers, then its folders'. True when there was one. */
function dispatch({ type, path: file }) {
  const full = normalize(file);
  const kind = type === 'create' ? ts.FileWatcherEventKind.Created : type === 'delete' ? ts.FileWatcherEventKind.Deleted : ts.FileWatcherEventKind.Changed;
  const callbacks = [...(fileWatchers.get(full) ?? [])].map((callback) => () => callback(full, kind));
  if (type !== 'update') {
    // A folder's content changes only when an entry comes or goes.
    for (let dir = path.dirname(full), direct = true; ; dir = path.dirname(dir), direct = false) {
      for (const { callback, recursive } of dirWatchers.get(dir) ?? []) if (direct || recursive) callbacks.push(() => callback(full));
      if (path.dirname(dir) === dir) break;
    }
  }
  for (const callback of callbacks) callback();
  return callbacks.length > 0;
}

process.on('message', (message) => {
  if (!message || !Array.isArray(message.events)) return;
  let seen = false;
  for (const event of message.events) seen = dispatch(event) || seen;
  if (!seen) return;
  changedAt ??= message.at ?? Date.now();
  changedSince = true;
  lastSaved = message.events.map((event) => normalize(event.path)).filter((file) => /\.(m|c)?tsx?$/.test(file));
});
process.on('disconnect', () => process.exit(0));
