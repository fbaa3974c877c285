import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { projectRoot } from '../support/server-process';

describe('WORKERS setting', () => {
  it('when WORKERS > 1 without DATABASE_URL, then loadConfig refuses with one clear message', () => {
    expect(() => loadConfig({ WORKERS: '4' })).toThrow('WORKERS=4 needs DATABASE_URL: the in-memory store cannot be shared between processes');
    expect(loadConfig({ WORKERS: '4', DATABASE_URL: 'postgres://db/app' }).workers).toBe(4);
    expect(loadConfig({}).workers).toBe(1);
  });

  it('when the built service starts with WORKERS=2 and the memory store, then it exits 1 with one line', () => {
    const env = { ...process.env, WORKERS: '2', DATABASE_URL: '', PORT: '0' };
    const run = spawnSync(process.execPath, [path.join(projectRoot, 'dist/src/server.js')], { env, encoding: 'utf8', timeout: 15000 });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'Invalid setting: WORKERS=2 needs DATABASE_URL: the in-memory store cannot be shared between processes',
    ]);
    expect(run.stdout).toBe('');
  });
});
