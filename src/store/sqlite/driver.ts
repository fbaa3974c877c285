import { createRequire } from 'node:module';

/**
 * The seam between the SQLite store and the library that runs SQLite. Two fit, with near-identical
 * synchronous APIs: `node:sqlite` (built into Node 22.13+ and 24, no dependency) and `better-sqlite3`
 * (a native addon that npm builds at install; installed on Node 20 only, by packages/node20-sqlite). The store
 * uses only what this file declares, so either serves it unchanged. Why the order: docs/maintainers/storage.md.
 */

/** A value SQLite binds: booleans are stored as 0/1 by the store, never bound as they are. */
export type SqlValue = string | number | bigint | null;

export interface Statement {
  get(...params: SqlValue[]): Record<string, unknown> | undefined;
  all(...params: SqlValue[]): Record<string, unknown>[];
  run(...params: SqlValue[]): { changes: number | bigint };
}

export interface Connection {
  prepare(sql: string): Statement;
  exec(sql: string): void;
  close(): void;
}

export type DriverName = 'node:sqlite' | 'better-sqlite3';

export interface Driver {
  readonly name: DriverName;
  /** Opens (creating it if missing) the database file; the folder must exist. */
  open(file: string): Connection;
}

/** Thrown when no driver can run here: the message says what to do, in one line. */
export class NoDriverError extends Error {}

/** better-sqlite3 first where it runs (it reads many rows faster: docs/maintainers/storage.md, "Drivers"); node:sqlite elsewhere. */
export const DRIVER_ORDER: readonly DriverName[] = ['better-sqlite3', 'node:sqlite'];

const load = createRequire(__filename);

/**
 * node:sqlite, through Node's public `getBuiltinModule`. Node 22 warns "experimental" on stderr at its first load;
 * `npm start` passes `--disable-warning=ExperimentalWarning` (docs/maintainers/storage.md, "Drivers").
 */
function loadNodeSqlite(): { DatabaseSync: new (file: string) => Connection } | undefined {
  // Absent before Node 22.13 (22.5-22.12 have it behind --experimental-sqlite only): getBuiltinModule answers undefined.
  return process.getBuiltinModule?.('node:sqlite') as { DatabaseSync: new (file: string) => Connection } | undefined;
}

function nodeSqlite(): Driver {
  const sqlite = loadNodeSqlite();
  if (!sqlite) throw new Error(`Node ${process.version} has no node:sqlite (Node 22.13+ and 24 have it)`);
  return { name: 'node:sqlite', open: (file) => new sqlite.DatabaseSync(file) };
}

/**
 * better-sqlite3 12 wraps its objects with Node's `node::ObjectWrap`, which Node 24 changed: the process
 * aborts (`Assertion failed: (env) != nullptr` in RemoveEnvironmentCleanupHook) when V8 collects a closed
 * database or statement (seen here on 24.21; nodejs/node#65446). Version 13 avoids it but needs Node 22 and
 * crashes on 20. On Node 24 and later node:sqlite serves instead.
 */
const LAST_MAJOR_FOR_BETTER_SQLITE3 = 23;

function betterSqlite3(): Driver {
  const major = Number(process.versions.node.split('.')[0]);
  if (major > LAST_MAJOR_FOR_BETTER_SQLITE3) throw new Error(`better-sqlite3 12 aborts the process on Node ${major} (nodejs/node#65446): node:sqlite serves there`);
  const Database = load('better-sqlite3') as new (file: string, options: { timeout: number }) => Connection;
  // The addon is loaded by the first open, not by require: a build for another Node version fails here.
  new Database(':memory:', { timeout: 0 }).close();
  // Lock waits are set per connection with PRAGMA busy_timeout, as for node:sqlite.
  return { name: 'better-sqlite3', open: (file) => new Database(file, { timeout: 0 }) };
}

const FACTORIES: Record<DriverName, () => Driver> = { 'node:sqlite': nodeSqlite, 'better-sqlite3': betterSqlite3 };

/** The driver named, or the first of DRIVER_ORDER that runs on this Node. */
export function loadDriver(name?: DriverName): Driver {
  const failures: string[] = [];
  for (const candidate of name ? [name] : DRIVER_ORDER) {
    try {
      return FACTORIES[candidate]();
    } catch (err) {
      failures.push(`${candidate}: ${String((err as Error).message).split('\n')[0]}`);
    }
  }
  throw new NoDriverError(
    `no SQLite driver runs on Node ${process.version} (${failures.join('; ')}): use Node 22.13+, or build better-sqlite3 (npm rebuild better-sqlite3, needs a C++ compiler), or set STORE=memory`,
  );
}

/** Whether a driver runs here (tests pick the drivers to run against with it). */
export function driverRuns(name: DriverName): boolean {
  try {
    FACTORIES[name]();
    return true;
  } catch {
    return false;
  }
}
