import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
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

/** Runs the built service (dist/, made by `npm test`'s pretest build), with `node` options before it. */
export function spawnService(env: Record<string, string>, nodeOptions: string[] = []): ServiceChild {
  let output = '';
  const child = spawn(process.execPath, [...nodeOptions, path.join(projectRoot, 'dist/src/server.js')], {
    cwd: projectRoot,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Starts the built service and waits until /health answers. */
export async function startService(env: Record<string, string> = {}, timeoutMs = 15000): Promise<ServiceProcess> {
  const port = Number(env.PORT ?? (await freePort()));
  const { child, output, exited } = spawnService({ ...env, PORT: String(port) });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited early (${child.exitCode}): ${output()}`);
    try {
      const res = await fetch(`${baseUrl}/health`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service did not answer /health within ${timeoutMs} ms: ${output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, port, baseUrl, output, exited };
}
