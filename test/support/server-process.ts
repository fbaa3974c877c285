import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const projectRoot = path.resolve(__dirname, '..', '..');

/** A free TCP port on loopback, found by binding port 0. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface ServiceChild {
  child: ChildProcess;
  /** What it wrote to stdout and stderr so far. */
  output: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

export interface ServiceProcess extends ServiceChild {
  port: number;
  baseUrl: string;
}

/**
 * The environment for a service process started by a test: `env` over this process's, and, unless `env`
 * picks a store (STORE, SQLITE_FILE or DATABASE_URL), the default store (SQLite) on a new file in a
 * temporary folder, so no test writes into the repository's `data/`. `remove` deletes that folder.
 */
export function serviceEnv(env: Record<string, string> = {}): { env: NodeJS.ProcessEnv; remove: () => void } {
  const picked = ['STORE', 'SQLITE_FILE', 'DATABASE_URL'].some((name) => name in env);
  if (picked) return { env: { ...process.env, ...env }, remove: () => undefined };
  const dir = mkdtempSync(path.join(tmpdir(), 'service-test-'));
  return {
    env: { ...process.env, ...env, SQLITE_FILE: path.join(dir, 'service.sqlite') },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Runs the built service (dist/, made by `npm test`'s pretest build), with `node` options before it, in the
 * environment serviceEnv makes (its temporary folder goes when the process exits). `script` is what runs: the
 * service itself, or `scripts/start.js` (what `npm start` runs; set NODE_ENV=production as it does). `cwd` is its
 * working directory (where it reads a .env), the project by default.
 */
export function spawnService(env: Record<string, string>, nodeOptions: string[] = [], script = 'dist/src/server.js', cwd = projectRoot): ServiceChild {
  let output = '';
  const service = serviceEnv({ LOG_LEVEL: 'info', ...env });
  const child = spawn(process.execPath, [...nodeOptions, path.join(projectRoot, script)], {
    cwd,
    env: service.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then(service.remove);
  return { child, output: () => output, exited };
}

/**
 * Runs the built service expecting it to refuse to start: resolves once it has exited and its output has ended, with
 * its exit code and what it wrote to stdout and stderr. One that starts serving instead (it logs `listening`) is killed, and resolves with
 * the code `'served'`. No time bound (a refusal comes when it comes): the test's timeout guards against a hang.
 */
export async function startRefused(env: Record<string, string>, cwd = projectRoot): Promise<{ code: number | null | 'served'; stdout: string; stderr: string }> {
  const service = serviceEnv({ LOG_LEVEL: 'info', ...env });
  const child = spawn(process.execPath, [path.join(projectRoot, 'dist/src/server.js')], { cwd, env: service.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const served = new Promise<'served'>((resolve) =>
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes('"msg":"listening"')) resolve('served');
    }),
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // 'close' comes once the child's stdout and stderr have ended: at 'exit' their last chunks may not have been read yet.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const code = await Promise.race([exited, served]);
  if (code === 'served') {
    // Killed, its output is not read further (workers it forked may hold the pipes open).
    child.kill('SIGKILL');
    await exited;
  } else {
    await closed;
  }
  service.remove();
  return { code, stdout, stderr };
}

/**
 * Starts the built service (or `script`, in `cwd`: see spawnService) and waits until /health answers, or fails
 * with what it printed if it exits first. No deadline of its own (a build on a busy machine takes what it takes):
 * the test's timeout guards against a hang.
 */
export async function startService(env: Record<string, string> = {}, script?: string, cwd?: string): Promise<ServiceProcess> {
  const port = Number(env.PORT ?? (await freePort()));
  const { child, output, exited } = spawnService({ ...env, PORT: String(port) }, [], script, cwd);
  const baseUrl = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited early (${child.exitCode}): ${output()}`);
    try {
      const res = await fetch(`${baseUrl}/health`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, port, baseUrl, output, exited };
}
