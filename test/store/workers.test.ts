import { loadConfig } from '../../src/config';
import { startRefused } from '../support/server-process';

describe('WORKERS setting', () => {
  it('when WORKERS > 1 without PostgreSQL, then loadConfig refuses with one clear message naming the store', () => {
    expect(() => loadConfig({ WORKERS: '4' })).toThrow('WORKERS=4 needs DATABASE_URL (PostgreSQL): the SQLite store is served by one process (docs/operating.md, "Where the data lives")');
    expect(() => loadConfig({ WORKERS: '4', STORE: 'memory' })).toThrow(
      'WORKERS=4 needs DATABASE_URL (PostgreSQL): the in-memory store cannot be shared between processes',
    );
    expect(loadConfig({ WORKERS: '4', DATABASE_URL: 'postgres://db/app' }).workers).toBe(4);
    expect(loadConfig({}).workers).toBe(1);
  });

  it.each([
    ['sqlite', 'the SQLite store is served by one process (docs/operating.md, "Where the data lives")'],
    ['memory', 'the in-memory store cannot be shared between processes'],
  ])('when the built service starts with WORKERS=2 and the %s store, then it exits 1 with one line', async (store, why) => {
    const run = await startRefused({ WORKERS: '2', STORE: store, DATABASE_URL: '', PORT: '0' });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([`Invalid setting: WORKERS=2 needs DATABASE_URL (PostgreSQL): ${why}`]);
    expect(run.stdout).toBe('');
  });
});
