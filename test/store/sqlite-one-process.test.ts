import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startRefused, startService, type ServiceProcess } from '../support/server-process';

describe('SQLite store: one service process per file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sqlite-one-'));
  const file = path.join(dir, 'service.sqlite');
  let first: ServiceProcess | undefined;
  afterAll(() => {
    first?.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('when a second service starts on the file a running one uses, then it exits 1 with one line pointing to PostgreSQL, and the first goes on serving; once the first is killed, the file opens again', async () => {
    first = await startService({ SQLITE_FILE: file, LOG_LEVEL: 'warn' });
    const created = (await (await fetch(`${first.baseUrl}/books`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"Kept"}' })).json()) as { id: number };

    const second = await startRefused({ SQLITE_FILE: file, PORT: '0' });
    expect(second.code).toBe(1);
    expect(second.stderr.trim().split('\n')).toEqual([
      `Failed to start: SQLITE_FILE ${file} is in use by another service process (one process per file; to run several, use PostgreSQL: DATABASE_URL)`,
    ]);
    expect((await fetch(`${first.baseUrl}/books/${created.id}`)).status).toBe(200);

    // The lock goes with the process, however it ends: a killed service is replaced at once, with its data.
    first.child.kill('SIGKILL');
    await first.exited;
    first = await startService({ SQLITE_FILE: file, LOG_LEVEL: 'warn' });
    expect(await (await fetch(`${first.baseUrl}/books/${created.id}`)).json()).toEqual(created);
  });
});
