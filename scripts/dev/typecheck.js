// The dev loop's type-checkers, child processes of scripts/dev.js so their work never delays a restart:
// TypeScript's watch API over tsconfig.json (what `npm run typecheck` checks: src, generated, tests,
// scripts). Two of them run, one per mode:
//   saved: after each save, checks the saved files only and prints their errors at once (a second or so).
//   all:   keeps the whole project's result with a semantic-diagnostics builder (a save re-checks the files it
//          affects, which takes longer when many import the saved file), and prints `ok`, or the count of the
//          errors the saved files' check did not show, by file (one line: `npm run typecheck` lists them). A type
//          change shows its errors where it was made first, not a wall of its consequences across src/ and test/.
//          After a save of TypeScript files, that line waits until the `saved` checker has printed their errors
//          (it says so through the parent), so it always comes below them.
//          Its state is kept in <outDir>/typecheck.tsbuildinfo for the next `npm run dev`.
// Neither watches the disk: the parent's watcher sends each change (`{ events: [{ type, path }], at, seq }`, `seq`
// numbering the changes) and this process calls the callbacks TypeScript registered for that path.
// An error is printed as `file:line:col error TSnnnn: message`.
const path = require('node:path');
const ts = require('typescript');

const [root, outDir, mode] = process.argv.slice(2);
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
/** The number of the latest change the parent sent (it numbers them). */
let latest = 0;
/** Mode `all`: the latest change whose saved files' errors the `saved` checker has printed (the parent relays it). */
let shown = 0;
/** Mode `all`: a summary waiting for the saved files' errors to be printed first: `{ change, print, timer }`. */
let waiting;
/** Mode `all`: how long a summary waits for them at most (a `saved` check that never comes: the same text saved again). */
const WAIT_FOR_SAVED_MS = 5000;
/** Set by each change the parent sends: a check of the whole project under way pauses between two files (checkAll). */
let changedSince = false;
/** TypeScript files saved since the last check (mode `saved`: to check; mode `all`: whose errors were shown). */
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

let warm = false;

/** Mode `saved`: the saved files' errors, or that they have none. */
function checkSaved(builder) {
  const program = builder.getProgram();
  if (!warm) {
    // The first check binds every file and warms the compiler up (seconds): done now, not at the first save.
    warm = true;
    const entry = program.getSourceFile(path.join(root, 'src', 'server.ts')) ?? program.getSourceFiles()[0];
    if (entry) program.getSemanticDiagnostics(entry);
  }
  for (const file of lastSaved) {
    const source = program.getSourceFile(file);
    if (!source) continue;
    const errors = errorsOf([...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]);
    const took = changedAt ? ` (${Date.now() - changedAt} ms after the save)` : '';
    if (!errors.length) say(green(`${path.relative(root, file)}: no type errors${took}`));
    else {
      // The message and its errors in one write: npm run dev, which prints to the same terminal, cannot print between them.
      say(`${red(`${path.relative(root, file)}: ${errors.length} type error${errors.length > 1 ? 's' : ''}${took}:`)}\n${errors.map(describe).join('\n')}`);
    }
  }
  lastSaved = [];
  changedAt = undefined;
  process.send?.({ shown: latest });
}

/** Mode `all`: prints now, or once the saved files' errors of `change` are printed when `afterSaved`. */
function printAfterSaved(change, afterSaved, print) {
  if (waiting) clearTimeout(waiting.timer);
  waiting = undefined;
  if (!afterSaved || shown >= change) return print();
  waiting = { change, print, timer: setTimeout(() => flushWaiting(Number.MAX_SAFE_INTEGER), WAIT_FOR_SAVED_MS) };
}

function flushWaiting(upTo) {
  if (!waiting || upTo < waiting.change) return;
  const { print, timer } = waiting;
  clearTimeout(timer);
  waiting = undefined;
  print();
}

/** Programs TypeScript has built (mode `all`): a check goes on only while its program is the newest. */
let programs = 0;

/**
 * Mode `all`: checks what the change affects one file at a time, letting a newer change in between two
 * files, then prints the whole project's errors. A change that comes in makes TypeScript build a new
 * program, whose check takes over from this one; when no file's text changed (an editor that writes the
 * same text twice), TypeScript keeps its program and calls nothing: then this check goes on.
 */
function checkAll(builder) {
  const program = ++programs;
  const change = latest;
  changedSince = false;
  const step = () => {
    if (program !== programs) return;
    if (changedSince) {
      changedSince = false;
      // TypeScript's rebuild runs from a 10 ms timer (system.setTimeout above), set before this one: by now it has built its program or kept this one.
      return setTimeout(step, 100);
    }
    const deadline = Date.now() + 50;
    while (builder.getSemanticDiagnosticsOfNextAffectedFile()) {
      if (Date.now() > deadline) return setImmediate(step);
    }
    summary(builder, change);
  };
  step();
}

function summary(builder, change) {
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
  const saved = new Set(lastSaved);
  lastSaved = [];
  const show = (line) => printAfterSaved(change, saved.size > 0, () => say(line));
  if (!errors.length) return show(green(`ok: ${program.getRootFileNames().length} files${took}`));
  // The saved files' errors were printed by the other checker, at once: the rest is counted, by file.
  const rest = errors.filter((d) => !d.file || !saved.has(normalize(d.file.fileName)));
  const plural = (n) => `${n} type error${n === 1 ? '' : 's'}`;
  if (!rest.length) return show(red(`${plural(errors.length)} in the project, all in the saved file${saved.size > 1 ? 's' : ''} (above)${took}`));
  const byFile = new Map();
  for (const d of rest) {
    const name = d.file ? path.relative(root, d.file.fileName) : '(the configuration)';
    byFile.set(name, (byFile.get(name) ?? 0) + 1);
  }
  const files = [...byFile].map(([name, n]) => `${name} (${n})`);
  const listed = files.length > 5 ? `${files.slice(0, 5).join(', ')} and ${files.length - 5} more files` : files.join(', ');
  const what = rest.length < errors.length ? `${rest.length} more type error${rest.length === 1 ? '' : 's'} in the project` : `${plural(errors.length)} in the project`;
  show(red(`${what}${took}: ${listed}; npm run typecheck prints them`));
}

const host = ts.createWatchCompilerHost(
  path.join(root, 'tsconfig.json'),
  // removeComments: a file whose comments alone changed (a description in a spec) does not make the
  // files that import it checked again.
  mode === 'all' ? { noEmit: true, incremental: true, tsBuildInfoFile: path.join(outDir, 'typecheck.tsbuildinfo'), removeComments: true } : { noEmit: true },
  system,
  mode === 'all' ? ts.createSemanticDiagnosticsBuilderProgram : ts.createAbstractBuilder,
  () => undefined, // diagnostics are reported by afterProgramCreate, all at once
  () => undefined, // and so is the status
);
host.afterProgramCreate = mode === 'all' ? checkAll : checkSaved;
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
  if (typeof message?.shown === 'number') {
    shown = Math.max(shown, message.shown);
    return flushWaiting(shown);
  }
  if (!message || !Array.isArray(message.events)) return;
  let seen = false;
  for (const event of message.events) seen = dispatch(event) || seen;
  if (!seen) return;
  // Only changes TypeScript sees are waited for: both checkers see the same ones, and only those start a check.
  latest = message.seq ?? latest;
  changedAt ??= message.at ?? Date.now();
  changedSince = true;
  const saved = message.events.map((event) => normalize(event.path)).filter((file) => /\.(m|c)?tsx?$/.test(file));
  // What codegen writes is checked with the project, not as a save.
  lastSaved = [...new Set([...lastSaved, ...saved.filter((file) => !file.startsWith(path.join(root, 'generated') + path.sep))])];
});
process.on('disconnect', () => process.exit(0));
