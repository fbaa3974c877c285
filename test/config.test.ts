import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, testConfig } from '../src/config';

describe('loadConfig defaults', () => {
  it('when the environment is empty, then every setting has its documented default', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      corsOrigins: 'read-only',
      logLevel: 'info',
      bodyLimit: 100 * 1024,
      seed: 'default',
      databaseUrl: undefined,
      validateResponses: false,
      graphql: { maxDepth: 10, maxAliases: 30, maxTokens: 5000, documentCacheSize: 500, compiledCacheSize: 100, compileAfter: 1 },
    });
  });

  it('when the operations settings are unset, then metrics are on at /metrics, health checks wait 1 s, and shutdown does not drain', () => {
    expect(loadConfig({})).toMatchObject({ metricsEnabled: true, metricsPath: '/metrics', healthTimeoutMs: 1000, shutdownDrainMs: 0 });
    expect(loadConfig({ METRICS_ENABLED: 'false', METRICS_PATH: '/internal/metrics', HEALTH_TIMEOUT_MS: '250', SHUTDOWN_DRAIN_MS: '5000' })).toMatchObject({
      metricsEnabled: false,
      metricsPath: '/internal/metrics',
      healthTimeoutMs: 250,
      shutdownDrainMs: 5000,
    });
  });

  it('when empty strings are given, then they count as unset', () => {
    expect(loadConfig({ PORT: '', LOG_LEVEL: '', BODY_LIMIT: '', SEED: '' })).toMatchObject({ port: 3000, logLevel: 'info', bodyLimit: 102400, seed: 'default' });
  });

  it('when values are given, then they are parsed (sizes with units, case-insensitive levels, seed paths resolved)', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'WARN',
      BODY_LIMIT: '1mb',
      SEED: 'empty',
      DATABASE_URL: 'postgres://u:p@localhost/db',
      VALIDATE_RESPONSES: 'yes',
      GRAPHQL_MAX_DEPTH: '5',
      GRAPHQL_COMPILED_CACHE_SIZE: '0',
      GRAPHQL_COMPILE_AFTER: '3',
    });
    expect(config).toMatchObject({ port: 8080, host: '127.0.0.1', logLevel: 'warn', bodyLimit: 1024 * 1024, seed: 'empty', validateResponses: true });
    expect(config.graphql).toMatchObject({ maxDepth: 5, compiledCacheSize: 0, compileAfter: 3 });
    expect(loadConfig({ SEED: 'my-seed.json' }).seed).toBe(path.resolve('my-seed.json'));
    expect(loadConfig({ BODY_LIMIT: '2048' }).bodyLimit).toBe(2048);
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
  });

  it('when testConfig is asked for overrides, then they win and logging is silent with response validation on', () => {
    expect(testConfig({ bodyLimit: 10 })).toMatchObject({ bodyLimit: 10, logLevel: 'silent', validateResponses: true });
  });
});

describe('loadConfig rejects bad values with a ConfigError naming the variable', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '-1'],
    ['PORT', '65536'],
    ['PORT', '80.5'],
    ['LOG_LEVEL', 'loud'],
    ['BODY_LIMIT', 'lots'],
    ['BODY_LIMIT', '0'],
    ['BODY_LIMIT', '10gb'],
    ['BODY_LIMIT', '-5kb'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['VALIDATE_RESPONSES', 'maybe'],
    ['GRAPHQL_MAX_DEPTH', '0'],
    ['GRAPHQL_MAX_ALIASES', 'x'],
    ['GRAPHQL_MAX_TOKENS', '5'],
    ['GRAPHQL_COMPILED_CACHE_SIZE', '-1'],
    ['GRAPHQL_COMPILE_AFTER', 'often'],
    ['SHUTDOWN_TIMEOUT_MS', 'soon'],
    ['METRICS_ENABLED', 'maybe'],
    ['METRICS_PATH', 'metrics'],
    ['METRICS_PATH', '/metrics?x=1'],
    ['METRICS_PATH', '/a//b'],
    ['HEALTH_TIMEOUT_MS', '5'],
    ['SHUTDOWN_DRAIN_MS', 'later'],
    ['RESPONSE_WRITE_TIMEOUT_MS', '5'],
    ['MAX_UNSENT_BYTES', '0'],
    ['MAX_UNSENT_BYTES', '20000mb'],
  ])('when %s=%s, then it throws a ConfigError that names %s', (name, value) => {
    let thrown: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toContain(name);
    expect((thrown as Error).message).not.toMatch(/\n/);
  });
});

describe('every setting is documented', () => {
  const read = (file: string) => readFileSync(path.join(__dirname, '..', file), 'utf8');
  // The variable names src/config.ts reads: integer(env, 'NAME', ...), bool(env, 'NAME', ...), env.NAME.
  const settings = [...read('src/config.ts').matchAll(/env, '([A-Z_]+)'|env\.([A-Z_]+)/g)].map((m) => m[1] ?? m[2]);

  it('when src/config.ts reads a variable, then .env.example sets it and a table of docs/settings.md lists it', () => {
    expect(settings.length).toBeGreaterThan(20);
    // A setting that may not be empty (AUTH_*: docs/settings.md) is listed commented out, `# NAME=`.
    const example = new Set([...read('.env.example').matchAll(/^(?:# )?([A-Z_]+)=/gm)].map((m) => m[1]));
    const docs = read('docs/settings.md');
    for (const name of new Set(settings)) {
      expect({ name, inEnvExample: example.has(name), inSettingsDoc: docs.includes(`| \`${name}\` |`) }).toEqual({ name, inEnvExample: true, inSettingsDoc: true });
    }
  });
});

describe('PostgreSQL connection queue settings', () => {
  it('when unset, then 10 connections, 1000 waiting requests, 10 s wait; when given, then parsed (0 waiting means shed at once)', () => {
    expect(loadConfig({})).toMatchObject({ dbPoolSize: 10, dbQueueLimit: 1000, dbQueueTimeoutMs: 10000 });
    expect(loadConfig({ DB_POOL_SIZE: '2', DB_QUEUE_LIMIT: '0', DB_QUEUE_TIMEOUT_MS: '250' })).toMatchObject({
      dbPoolSize: 2,
      dbQueueLimit: 0,
      dbQueueTimeoutMs: 250,
    });
  });

  it.each([
    ['DB_POOL_SIZE', '0'],
    ['DB_POOL_SIZE', 'ten'],
    ['DB_QUEUE_LIMIT', '-1'],
    ['DB_QUEUE_TIMEOUT_MS', '0'],
    ['DB_QUEUE_TIMEOUT_MS', '10s'],
  ])('when %s=%s, then it throws a one-line ConfigError that names it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name} must be an integer from \\d+ to \\d+, got "${value}"$`));
  });
});
