import path from 'node:path';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Config {
  port: number;
  /** Interface to listen on; undefined means every interface (IPv6 and IPv4). */
  host: string | undefined;
  logLevel: LogLevel;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** `default` (seed/default.json), `empty`, or a path to a seed file of the same shape. */
  seed: string;
  /** postgres:// URL; unset means the embedded in-memory store. */
  databaseUrl: string | undefined;
  /** Validate every response against openapi.yaml (on in tests; a drifting response becomes a 500). */
  validateResponses: boolean;
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
  };
  /** How long shutdown waits for in-flight requests before closing them. */
  shutdownTimeoutMs: number;
  /** Processes serving requests (node:cluster); more than 1 needs DATABASE_URL. */
  workers: number;
  /** Browser origins allowed by CORS: `*` (any, the default for local use) or an allow-list. */
  corsOrigins: '*' | string[];
  /** Requests per client IP per window; 0 turns rate limiting off (the default). */
  rateLimit: number;
  rateLimitWindowMs: number;
  /** Most client IPs the rate limiter tracks at once (oldest forgotten first). */
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
  /** How long the answer to a request with an Idempotency-Key is kept (and replayed for that key). */
  idempotencyTtlMs: number;
}

export class ConfigError extends Error {}

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

function byteSize(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const match = /^(\d+)\s*([a-z]*)$/i.exec(raw.trim());
  const unit = match && SIZE_UNITS[match[2].toLowerCase()];
  const bytes = match && unit ? Number(match[1]) * unit : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1 || bytes > 64 * 1024 ** 2) {
    throw new ConfigError(`${name} must be a size from 1 byte to 64mb such as 100kb, got "${raw}"`);
  }
  return bytes;
}

function databaseUrl(env: Env): string | undefined {
  const raw = env.DATABASE_URL?.trim();
  if (!raw) return undefined;
  if (!/^postgres(ql)?:\/\//.test(raw)) throw new ConfigError('DATABASE_URL must be a postgres:// URL');
  return raw;
}

function corsOrigins(env: Env): '*' | string[] {
  const raw = env.CORS_ORIGINS?.trim();
  if (!raw || raw === '*') return '*';
  const origins = raw.split(',').map((o) => o.trim()).filter(Boolean);
  for (const origin of origins) {
    if (!/^https?:\/\/[^/\s]+$/i.test(origin)) {
      throw new ConfigError(`CORS_ORIGINS must be * or a comma-separated list of origins such as https://app.example, got "${origin}"`);
    }
  }
  return origins.map((o) => o.toLowerCase());
}

/** Reads the settings from the environment. Throws a ConfigError naming the first bad value. */
export function loadConfig(env: Env = process.env): Config {
  const seed = env.SEED?.trim() || 'default';
  const config: Config = {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST?.trim() || undefined,
    logLevel: oneOf(env, 'LOG_LEVEL', 'info', ['debug', 'info', 'warn', 'error', 'silent'] as const),
    bodyLimit: byteSize(env, 'BODY_LIMIT', 100 * 1024),
    seed: seed === 'default' || seed === 'empty' ? seed : path.resolve(seed),
    databaseUrl: databaseUrl(env),
    validateResponses: bool(env, 'VALIDATE_RESPONSES', false),
    graphql: {
      maxDepth: integer(env, 'GRAPHQL_MAX_DEPTH', 10, 1, 1000),
      maxAliases: integer(env, 'GRAPHQL_MAX_ALIASES', 30, 0, 100000),
      maxTokens: integer(env, 'GRAPHQL_MAX_TOKENS', 5000, 10, 1000000),
      documentCacheSize: integer(env, 'GRAPHQL_DOCUMENT_CACHE_SIZE', 500, 0, 100000),
      compiledCacheSize: integer(env, 'GRAPHQL_COMPILED_CACHE_SIZE', 100, 0, 10000),
      compileAfter: integer(env, 'GRAPHQL_COMPILE_AFTER', 1, 0, 1000000),
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
    idempotencyTtlMs: integer(env, 'IDEMPOTENCY_TTL_MS', 24 * 3600000, 1000, 30 * 24 * 3600000),
  };
  if (config.workers > 1 && !config.databaseUrl) {
    throw new ConfigError(`WORKERS=${config.workers} needs DATABASE_URL: the in-memory store cannot be shared between processes`);
  }
  if (config.headersTimeoutMs > config.requestTimeoutMs) {
    throw new ConfigError(`HEADERS_TIMEOUT_MS (${config.headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${config.requestTimeoutMs})`);
  }
  return config;
}

/** Settings for tests and embedding: the defaults, with overrides. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({});
  return { ...base, logLevel: 'silent', validateResponses: true, ...overrides, graphql: { ...base.graphql, ...overrides.graphql } };
}
