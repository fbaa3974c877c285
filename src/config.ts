import { createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Config {
  port: number;
  /** Address to listen on: loopback (`127.0.0.1`) unless HOST says otherwise (`0.0.0.0` or `::` for every interface). */
  host: string;
  logLevel: LogLevel;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** Most bytes of a refused request body read and thrown away (so the client sees the answer) before the connection is cut. */
  bodyDrainLimit: number;
  /** `default` (seed/default.json), `empty`, or a path to a seed file of the same shape. */
  seed: string;
  /** Where the data is kept: `sqlite` (one file; the default), `memory` (gone on exit) or `postgres` (at DATABASE_URL). */
  store: StoreChoice;
  /** The SQLite store's file (absolute: SQLITE_FILE resolved from the working directory). */
  sqliteFile: string;
  /** The library that runs SQLite: `auto` (the first that runs on this Node: better-sqlite3, then node:sqlite) or one of them. */
  sqliteDriver: 'auto' | 'better-sqlite3' | 'node:sqlite';
  /** postgres:// URL: the PostgreSQL store. */
  databaseUrl: string | undefined;
  /** PostgreSQL connections per process; requests beyond them wait in a bounded queue. */
  dbPoolSize: number;
  /** Requests allowed to wait for a connection; one more is answered 503 "Server busy" at once. */
  dbQueueLimit: number;
  /** Longest wait for a connection (ms); then 503 "Server busy". */
  dbQueueTimeoutMs: number;
  /** Bounds on a list query: most values of one `in` filter, most filters per request (src/store/query.ts). */
  queryLimits: { inValues: number; filters: number };
  /** Validate every response against openapi.yaml (on in tests; a drifting response becomes a 500). */
  validateResponses: boolean;
  /** Operations with no handler and GraphQL fields with no resolver answer mocked values from the contract (src/mock/) instead of stopping the start. */
  mockUnimplemented: boolean;
  graphql: {
    maxDepth: number;
    maxAliases: number;
    maxTokens: number;
    /** Parsed-and-validated documents kept for reuse. */
    documentCacheSize: number;
    /** Compiled query operations kept (graphql-jit); 0 runs every operation with graphql-js. */
    compiledCacheSize: number;
    /** Runs of a cached query document with graphql-js before it is compiled. */
    compileAfter: number;
    /** Most records one result may hold; more is a RESULT_TOO_LARGE error (src/graphql/large-answers.ts). */
    maxResultItems: number;
    /** Large answers (over 1000 records) built or written at once; another waits for its turn. */
    maxLargeAnswers: number;
    /** Longest wait for a large answer's turn, then 503 with Retry-After. */
    largeAnswerWaitMs: number;
  };
  /** How long shutdown waits for in-flight requests before closing them. */
  shutdownTimeoutMs: number;
  /** Processes serving requests (node:cluster); more than 1 needs PostgreSQL (DATABASE_URL). */
  workers: number;
  /**
   * Browser origins allowed by CORS: `read-only` (CORS_ORIGINS unset, the default: any origin may read, none may
   * write), `*` (any origin may read and write) or an allow-list (those origins may read and write, others nothing).
   */
  corsOrigins: CorsOrigins;
  /** Requests per client IP per window; 0 turns rate limiting off (the default). */
  rateLimit: number;
  rateLimitWindowMs: number;
  /** Most clients the rate limiter tracks at once (the one seen longest ago forgotten first). */
  rateLimitMaxClients: number;
  /** Largest request head (request line + headers) in bytes; larger is a 431. */
  maxHeaderSize: number;
  /** Time allowed to receive the request head / the whole request before the connection is closed. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /** Most simultaneous connections; 0 means no limit. */
  maxConnections: number;
  /** Serve Prometheus metrics (and count requests for them). */
  metricsEnabled: boolean;
  /** Where the metrics are served (outside openapi.yaml). */
  metricsPath: string;
  /** Longest wait for storage in /health and /health/ready before answering 503. */
  healthTimeoutMs: number;
  /** On SIGTERM/SIGINT, how long /health/ready answers 503 (and requests are still served) before the server closes. */
  shutdownDrainMs: number;
  /** A connection whose client accepts none of its pending response bytes for this long is closed. */
  responseWriteTimeoutMs: number;
  /** Most bytes of responses held by the process, not yet accepted by their clients, over all connections. */
  maxUnsentBytes: number;
  /** How long the answer to a request with an Idempotency-Key is kept (and replayed for that key). */
  idempotencyTtlMs: number;
  /** Bearer tokens (JWT) checked against openapi.yaml's and schema.graphql's scopes; undefined: the open contract (the default). */
  auth: AuthSettings | undefined;
}

/** How tokens are checked (AUTH_* settings, docs/settings.md). */
export interface AuthSettings {
  /** The one algorithm tokens must be signed with: HS256 with a secret, RS256 or ES256 with a PEM public key. */
  algorithm: 'HS256' | 'RS256' | 'ES256';
  /** The HS256 secret (UTF-8 bytes), or the PEM text of the public key. */
  key: string;
  issuer: string | undefined;
  audience: string | undefined;
  /** `public`: reads need no token; `token`: reads need their `<collection>:read` scope. */
  reads: 'public' | 'token';
}

/** What CORS_ORIGINS allows (Config.corsOrigins). */
export type CorsOrigins = 'read-only' | '*' | string[];

export class ConfigError extends Error {}

export const STORES = ['sqlite', 'memory', 'postgres'] as const;
export type StoreChoice = (typeof STORES)[number];

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function oneOf<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = raw.trim().toLowerCase() as T;
  if (!allowed.includes(value)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, kib: 1024, mb: 1024 ** 2, mib: 1024 ** 2 };

function byteSize(env: Env, name: string, fallback: number, maxMiB = 64): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const match = /^(\d+)\s*([a-z]*)$/i.exec(raw.trim());
  const unit = match && SIZE_UNITS[match[2].toLowerCase()];
  const bytes = match && unit ? Number(match[1]) * unit : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1 || bytes > maxMiB * 1024 ** 2) {
    throw new ConfigError(`${name} must be a size from 1 byte to ${maxMiB}mb such as 100kb, got "${raw}"`);
  }
  return bytes;
}

function databaseUrl(env: Env): string | undefined {
  const raw = env.DATABASE_URL?.trim();
  if (!raw) return undefined;
  if (!/^postgres(ql)?:\/\//.test(raw)) throw new ConfigError('DATABASE_URL must be a postgres:// URL');
  return raw;
}

/**
 * STORE and DATABASE_URL together: DATABASE_URL alone means PostgreSQL, nothing means SQLite; STORE=postgres
 * needs DATABASE_URL, and STORE=sqlite or memory with DATABASE_URL set is a contradiction, refused rather than guessed.
 */
function store(env: Env, url: string | undefined): Pick<Config, 'store' | 'sqliteFile' | 'sqliteDriver'> {
  const choice = oneOf<StoreChoice>(env, 'STORE', url ? 'postgres' : 'sqlite', STORES);
  if (choice === 'postgres' && !url) throw new ConfigError('STORE=postgres needs DATABASE_URL (a postgres:// URL)');
  if (choice !== 'postgres' && url) throw new ConfigError(`STORE=${choice} contradicts DATABASE_URL (which means PostgreSQL): unset one of them`);
  const file = env.SQLITE_FILE?.trim() || 'data/service.sqlite';
  if (file === ':memory:' || file.startsWith('file:')) throw new ConfigError(`SQLITE_FILE must be a file path, got "${file}" (for a store in memory, set STORE=memory)`);
  const sqliteDriver = oneOf(env, 'SQLITE_DRIVER', 'auto', ['auto', 'better-sqlite3', 'node:sqlite'] as const);
  return { store: choice, sqliteFile: path.resolve(file), sqliteDriver };
}

function corsOrigins(env: Env): CorsOrigins {
  const raw = env.CORS_ORIGINS?.trim();
  if (!raw) return 'read-only';
  if (raw === '*') return '*';
  const origins = raw.split(',').map((o) => o.trim()).filter(Boolean);
  for (const origin of origins) {
    if (!/^https?:\/\/[^/\s]+$/i.test(origin)) {
      throw new ConfigError(`CORS_ORIGINS must be * or a comma-separated list of origins such as https://app.example, got "${origin}"`);
    }
  }
  return origins.map((o) => o.toLowerCase());
}

function metricsPath(env: Env): string {
  const raw = env.METRICS_PATH?.trim();
  if (!raw) return '/metrics';
  if (!/^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(raw)) {
    throw new ConfigError(`METRICS_PATH must be a path such as /metrics (letters, digits, . _ ~ - and /), got "${raw}"`);
  }
  return raw;
}

/** The AUTH_* settings: each one turns access control on, or narrows it. */
const AUTH_SETTINGS = ['AUTH_JWT_SECRET', 'AUTH_JWT_PUBLIC_KEY_FILE', 'AUTH_JWT_ISSUER', 'AUTH_JWT_AUDIENCE', 'AUTH_READS'] as const;

/** Shortest HS256 secret accepted, in bytes: as long as the hash's output (RFC 7518 §3.2). */
export const MIN_HS256_SECRET_BYTES = 32;

/**
 * The AUTH_* settings: off unless AUTH_JWT_SECRET or AUTH_JWT_PUBLIC_KEY_FILE is set. Settings that cannot
 * protect stop the start: any of them set to an empty value (an empty value elsewhere means "the default",
 * and here the default is less protection: an environment's `AUTH_JWT_SECRET=` over a .env's secret would
 * start an open service), a secret shorter than MIN_HS256_SECRET_BYTES, and the settings that only mean
 * something with a key, set without one.
 */
function auth(env: Env): AuthSettings | undefined {
  for (const name of AUTH_SETTINGS) {
    if (env[name] !== undefined && env[name].trim() === '') {
      throw new ConfigError(`${name} is set but empty, which would turn access control off or loosen it: give it a value, or unset it`);
    }
  }
  const secret = env.AUTH_JWT_SECRET;
  const keyFile = env.AUTH_JWT_PUBLIC_KEY_FILE?.trim();
  const reads = oneOf(env, 'AUTH_READS', 'public', ['public', 'token'] as const);
  const issuer = env.AUTH_JWT_ISSUER?.trim() || undefined;
  const audience = env.AUTH_JWT_AUDIENCE?.trim() || undefined;
  if (secret && keyFile) throw new ConfigError('AUTH_JWT_SECRET and AUTH_JWT_PUBLIC_KEY_FILE are both set: unset one of them');
  if (secret) {
    const bytes = Buffer.byteLength(secret, 'utf8');
    if (bytes < MIN_HS256_SECRET_BYTES) {
      throw new ConfigError(`AUTH_JWT_SECRET must be at least ${MIN_HS256_SECRET_BYTES} bytes (RFC 7518 §3.2), got ${bytes}: a shorter HS256 key is guessed offline from any token; make one with \`openssl rand -base64 32\``);
    }
    return { algorithm: 'HS256', key: secret, issuer, audience, reads };
  }
  if (keyFile) {
    let pem: string;
    try {
      pem = readFileSync(keyFile, 'utf8');
    } catch (err) {
      throw new ConfigError(`AUTH_JWT_PUBLIC_KEY_FILE cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
    return { algorithm: publicKeyAlgorithm(pem), key: pem, issuer, audience, reads };
  }
  // Settings that only mean something with a key: set without one, the operator expects a check that would not run.
  if (issuer || audience || reads === 'token') throw new ConfigError('AUTH_JWT_ISSUER, AUTH_JWT_AUDIENCE and AUTH_READS=token need AUTH_JWT_SECRET or AUTH_JWT_PUBLIC_KEY_FILE');
  return undefined;
}

/** How the start line says tokens are checked (or that none is). */
export function accessControl(auth: AuthSettings | undefined): string {
  if (!auth) return 'off: no token is checked';
  const key = auth.algorithm === 'HS256' ? 'HS256, AUTH_JWT_SECRET' : `${auth.algorithm}, AUTH_JWT_PUBLIC_KEY_FILE`;
  const claims = [auth.issuer && `iss ${auth.issuer}`, auth.audience && `aud ${auth.audience}`].filter(Boolean).join(', ');
  const reads = auth.reads === 'token' ? 'reads need their scope too' : 'reads are public';
  return `bearer tokens checked (${key}${claims ? `; ${claims}` : ''}): writes need their scope, ${reads}`;
}

/** Whether an address the server is bound to answers this machine only (127.0.0.0/8, ::1, and IPv4 loopback mapped to IPv6). */
export function isLoopback(address: string): boolean {
  return /^(?:127\.|::ffff:127\.)/i.test(address) || address === '::1' || address === 'localhost';
}

/** RS256 for an RSA public key, ES256 for a P-256 one; anything else stops the start. */
function publicKeyAlgorithm(pem: string): 'RS256' | 'ES256' {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new ConfigError('AUTH_JWT_PUBLIC_KEY_FILE must hold a PEM public key (RSA or EC P-256)');
  }
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  throw new ConfigError(`AUTH_JWT_PUBLIC_KEY_FILE must hold an RSA or EC P-256 public key, got ${key.asymmetricKeyType ?? 'another kind'}`);
}

/** A line of a .env file that sets a variable: `NAME=value` or `export NAME=value`, spaces allowed around `=`. */
const ENV_LINE = /^\s*(?:export\s+)?[A-Za-z_][\w.-]*\s*=\s*(.*)$/;

/**
 * Reads the .env file of the working directory into `env` when there is one; a variable `env` has already
 * (even empty) keeps its value: the environment wins over the file. The syntax is Node's own (`util.parseEnv`:
 * `#` comments, quotes, multi-line values in quotes); a line that is none of these would be read differently by
 * Node 20 and 24, so it is refused, as is a .env that cannot be read. Throws a ConfigError naming the line.
 */
export function loadEnvFile(env: Env = process.env, file = '.env'): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    throw new ConfigError(`${file} cannot be read (${code ?? String(err)})`);
  }
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const value = ENV_LINE.exec(line)?.[1];
    if (value === undefined) throw new ConfigError(`${file} line ${i + 1} is not NAME=value: "${line.trim().slice(0, 60)}"`);
    // A quote that this line does not close runs on to the line that does, when one does (else it is the value's first character).
    const quote = /^["'`]/.exec(value)?.[0];
    if (quote && !value.slice(1).includes(quote)) {
      const end = lines.findIndex((later, j) => j > i && later.includes(quote));
      if (end > i) i = end;
    }
  }
  for (const [name, value] of Object.entries(parseEnv(text))) if (env[name] === undefined) env[name] = value;
}

/** Reads the settings from the environment. Throws a ConfigError naming the first bad value. */
export function loadConfig(env: Env = process.env): Config {
  const seed = env.SEED?.trim() || 'default';
  const url = databaseUrl(env);
  const config: Config = {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST?.trim() || '127.0.0.1',
    logLevel: oneOf(env, 'LOG_LEVEL', 'info', ['debug', 'info', 'warn', 'error', 'silent'] as const),
    bodyLimit: byteSize(env, 'BODY_LIMIT', 100 * 1024),
    bodyDrainLimit: byteSize(env, 'BODY_DRAIN_LIMIT', 16 * 1024 ** 2, 16 * 1024),
    seed: seed === 'default' || seed === 'empty' ? seed : path.resolve(seed),
    ...store(env, url),
    databaseUrl: url,
    dbPoolSize: integer(env, 'DB_POOL_SIZE', 10, 1, 1000),
    dbQueueLimit: integer(env, 'DB_QUEUE_LIMIT', 1000, 0, 1000000),
    dbQueueTimeoutMs: integer(env, 'DB_QUEUE_TIMEOUT_MS', 10000, 1, 600000),
    queryLimits: { inValues: integer(env, 'QUERY_MAX_IN_VALUES', 100, 1, 10000), filters: integer(env, 'QUERY_MAX_FILTERS', 10, 1, 1000) },
    validateResponses: bool(env, 'VALIDATE_RESPONSES', false),
    mockUnimplemented: bool(env, 'MOCK_UNIMPLEMENTED', false),
    graphql: {
      maxDepth: integer(env, 'GRAPHQL_MAX_DEPTH', 10, 1, 1000),
      maxAliases: integer(env, 'GRAPHQL_MAX_ALIASES', 30, 0, 100000),
      maxTokens: integer(env, 'GRAPHQL_MAX_TOKENS', 5000, 10, 1000000),
      documentCacheSize: integer(env, 'GRAPHQL_DOCUMENT_CACHE_SIZE', 500, 0, 100000),
      compiledCacheSize: integer(env, 'GRAPHQL_COMPILED_CACHE_SIZE', 100, 0, 10000),
      compileAfter: integer(env, 'GRAPHQL_COMPILE_AFTER', 1, 0, 1000000),
      maxResultItems: integer(env, 'GRAPHQL_MAX_RESULT_ITEMS', 20000, 1, 10000000),
      maxLargeAnswers: integer(env, 'GRAPHQL_MAX_LARGE_ANSWERS', 4, 1, 10000),
      largeAnswerWaitMs: integer(env, 'GRAPHQL_LARGE_ANSWER_WAIT_MS', 2000, 0, 600000),
    },
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10000, 0, 600000),
    workers: integer(env, 'WORKERS', 1, 1, 64),
    corsOrigins: corsOrigins(env),
    rateLimit: integer(env, 'RATE_LIMIT', 0, 0, 1000000),
    rateLimitWindowMs: integer(env, 'RATE_LIMIT_WINDOW_MS', 60000, 100, 86400000),
    rateLimitMaxClients: integer(env, 'RATE_LIMIT_MAX_CLIENTS', 10000, 1, 10000000),
    maxHeaderSize: byteSize(env, 'MAX_HEADER_SIZE', 16 * 1024),
    headersTimeoutMs: integer(env, 'HEADERS_TIMEOUT_MS', 10000, 100, 600000),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30000, 100, 3600000),
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 5000, 100, 600000),
    maxConnections: integer(env, 'MAX_CONNECTIONS', 0, 0, 1000000),
    metricsEnabled: bool(env, 'METRICS_ENABLED', true),
    metricsPath: metricsPath(env),
    healthTimeoutMs: integer(env, 'HEALTH_TIMEOUT_MS', 1000, 10, 60000),
    shutdownDrainMs: integer(env, 'SHUTDOWN_DRAIN_MS', 0, 0, 600000),
    responseWriteTimeoutMs: integer(env, 'RESPONSE_WRITE_TIMEOUT_MS', 30000, 10, 3600000),
    maxUnsentBytes: byteSize(env, 'MAX_UNSENT_BYTES', 128 * 1024 ** 2, 16 * 1024),
    idempotencyTtlMs: integer(env, 'IDEMPOTENCY_TTL_MS', 24 * 3600000, 1000, 30 * 24 * 3600000),
    auth: auth(env),
  };
  if (config.workers > 1 && config.store !== 'postgres') {
    const why = config.store === 'memory' ? 'the in-memory store cannot be shared between processes' : 'the SQLite store is served by one process (docs/operating.md, "Where the data lives")';
    throw new ConfigError(`WORKERS=${config.workers} needs DATABASE_URL (PostgreSQL): ${why}`);
  }
  if (config.headersTimeoutMs > config.requestTimeoutMs) {
    throw new ConfigError(`HEADERS_TIMEOUT_MS (${config.headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${config.requestTimeoutMs})`);
  }
  return config;
}

/**
 * Settings for tests and embedding: the defaults, with overrides, and the in-memory store (a store built from
 * them writes no file unless asked: `store: 'sqlite'` with an `sqliteFile`).
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({});
  return { ...base, logLevel: 'silent', validateResponses: true, store: 'memory', ...overrides, graphql: { ...base.graphql, ...overrides.graphql } };
}
