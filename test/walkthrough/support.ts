import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, projectRoot } from '../support/server-process';

/**
 * What the walk-throughs of docs/changing-the-contract.md share: the page's own snippets, and the copy's service
 * started as `npm start` starts it, waited for by what it prints (its `listening` line, or its exit), never by time.
 */

const DOC = path.join(projectRoot, 'docs', 'changing-the-contract.md');

/** The code block that follows `<!-- walkthrough:NAME -->` in the doc, unindented. */
export function snippet(name: string): string {
  const text = readFileSync(DOC, 'utf8');
  const at = text.indexOf(`<!-- walkthrough:${name} -->`);
  if (at < 0) throw new Error(`docs/changing-the-contract.md has no walkthrough:${name} snippet`);
  const block = /```[a-z]*\n([\s\S]*?)\n\s*```/.exec(text.slice(at))![1];
  const indent = /^ */.exec(block)![0].length;
  return block
    .split('\n')
    .map((line) => line.slice(indent))
    .join('\n');
}

/** `text` with every line indented by `spaces`. */
export const indented = (text: string, spaces: number) =>
  text
    .split('\n')
    .map((line) => (line ? `${' '.repeat(spaces)}${line}` : line))
    .join('\n');

export interface Running {
  url: string;
  stop(): Promise<void>;
}

/** How a start of the copy ended: serving (`running`), or its exit with everything it printed. */
export type Started = { running: Running; output: string } | { running?: undefined; code: number | null; output: string };

/**
 * Starts the copy in `dir` with `args` (the built server, `dist/src/server.js`, or `scripts/start.js` as `npm start`
 * runs it) on `env`, and resolves once it prints that it listens, or once it exits.
 */
export async function startCopy(dir: string, env: Record<string, string>, script = 'dist/src/server.js'): Promise<Started> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [path.join(dir, script)], {
    cwd: dir,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise<Started>((resolve) => {
    const seen = (chunk: Buffer) => {
      output += chunk;
      if (!/"msg":"listening"/.test(output)) return;
      child.stdout.off('data', seen);
      child.stdout.on('data', (more) => (output += more));
      resolve({
        output,
        running: {
          url: `http://127.0.0.1:${port}`,
          stop: async () => {
            child.kill('SIGTERM');
            await exited;
          },
        },
      });
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', (chunk) => (output += chunk));
    void exited.then((code) => resolve({ code, output }));
  });
}

/** The copy's service, serving; fails with what it printed when it exits instead. */
export async function serve(dir: string, env: Record<string, string>, script?: string): Promise<Running> {
  const started = await startCopy(dir, env, script);
  if (!started.running) throw new Error(`the service exited (${started.code}): ${started.output}`);
  return started.running;
}

/** A JSON exchange: the status and the parsed body. */
export const json = async (url: string, init?: RequestInit & { contentType?: string }) => {
  const res = await fetch(url, { ...init, headers: { 'Content-Type': init?.contentType ?? 'application/json', ...init?.headers } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & Record<string, unknown>[] };
};
