import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { startRefused } from '../support/server-process';

describe('store settings: STORE, SQLITE_FILE, SQLITE_DRIVER and DATABASE_URL', () => {
  it('when nothing is set, then the data is kept by SQLite in data/service.sqlite under the working directory, on the first driver that runs', () => {
    expect(loadConfig({})).toMatchObject({ store: 'sqlite', sqliteFile: path.resolve('data/service.sqlite'), sqliteDriver: 'auto', databaseUrl: undefined });
  });

  it('when DATABASE_URL alone is set, then PostgreSQL; when STORE says so, then memory or SQLite at SQLITE_FILE (resolved from the working directory)', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db/app' })).toMatchObject({ store: 'postgres', databaseUrl: 'postgres://db/app' });
    expect(loadConfig({ STORE: 'postgres', DATABASE_URL: 'postgres://db/app' }).store).toBe('postgres');
    expect(loadConfig({ STORE: 'Memory' }).store).toBe('memory');
    expect(loadConfig({ STORE: 'sqlite', SQLITE_FILE: 'var/books.db', SQLITE_DRIVER: 'node:sqlite' })).toMatchObject({
      store: 'sqlite',
      sqliteFile: path.resolve('var/books.db'),
      sqliteDriver: 'node:sqlite',
    });
  });

  it.each([
    [{ STORE: 'postgres' }, 'STORE=postgres needs DATABASE_URL (a postgres:// URL)'],
    [{ STORE: 'sqlite', DATABASE_URL: 'postgres://db/app' }, 'STORE=sqlite contradicts DATABASE_URL (which means PostgreSQL): unset one of them'],
    [{ STORE: 'memory', DATABASE_URL: 'postgres://db/app' }, 'STORE=memory contradicts DATABASE_URL (which means PostgreSQL): unset one of them'],
    [{ STORE: 'mongodb' }, 'STORE must be one of sqlite, memory, postgres, got "mongodb"'],
    [{ SQLITE_FILE: ':memory:' }, 'SQLITE_FILE must be a file path, got ":memory:" (for a store in memory, set STORE=memory)'],
    [{ SQLITE_DRIVER: 'sqlite3' }, 'SQLITE_DRIVER must be one of auto, better-sqlite3, node:sqlite, got "sqlite3"'],
  ])('when %p, then a one-line ConfigError says what is wrong', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('when the built service starts with STORE=sqlite and DATABASE_URL, then it exits 1 with that one line', async () => {
    const run = await startRefused({ STORE: 'sqlite', DATABASE_URL: 'postgres://db/app', PORT: '0' });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual(['Invalid setting: STORE=sqlite contradicts DATABASE_URL (which means PostgreSQL): unset one of them']);
  });
});
