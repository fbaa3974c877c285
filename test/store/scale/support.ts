import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { startService, type ServiceProcess } from '../../support/server-process';

/** A new database on the test cluster, for services started as separate processes; dropped by drop(). */
export async function createScratchDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `scale_${randomBytes(4).toString('hex')}`;
  const admin = new Pool({ connectionString: adminUrl, max: 1 });
  // Its idle connection dies when the fault test stops the server; the next query reconnects.
  admin.on('error', () => undefined);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** Starts the built service on `databaseUrl` (a free port each), quiet logs. */
export function startOn(databaseUrl: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
  return startService({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', ...env });
}

/** SIGTERM, then the exit code. */
export async function stopService(service: ServiceProcess): Promise<number | null> {
  if (service.child.exitCode === null) service.child.kill('SIGTERM');
  return service.exited;
}

export interface Answer {
  status: number;
  body: unknown;
}

/** One JSON request; a network failure or a 10 s wait is status 0 (the service must never do that). */
export async function call(baseUrl: string, method: string, path: string, body?: unknown): Promise<Answer> {
  try {
    const res = await fetch(baseUrl + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // plain text
    }
    return { status: res.status, body: parsed };
  } catch {
    return { status: 0, body: undefined };
  }
}
