import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from './server-process';

/** A copy of the project in a temporary folder, to run its scripts on as a user would, without touching this one. */
export interface ProjectCopy {
  dir: string;
  /** The absolute path of a project-relative file of the copy. */
  file(name: string): string;
  read(name: string): string;
  write(name: string, text: string): void;
  /** Runs a command in the copy: its exit status and what it printed (stdout and stderr, each whole). */
  run(command: string, args: string[], env?: Record<string, string>): { status: number; stdout: string; stderr: string };
  remove(): void;
}

/**
 * Copies the project's files as git sees them (tracked and new, not ignored) into a temporary folder, with its
 * node_modules linked; `only` limits the copy to those project-relative paths (folders included whole).
 */
export function copyProject(prefix: string, only?: string[]): ProjectCopy {
  const dir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: projectRoot, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const name of files) {
    if (only && !only.some((kept) => name === kept || name.startsWith(`${kept}/`))) continue;
    const from = path.join(projectRoot, name);
    if (!statSync(from, { throwIfNoEntry: false })?.isFile()) continue;
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    cpSync(from, path.join(dir, name));
  }
  symlinkSync(path.join(projectRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const file = (name: string) => path.join(dir, name);
  return {
    dir,
    file,
    read: (name) => readFileSync(file(name), 'utf8'),
    write: (name, text) => writeFileSync(file(name), text),
    run(command, args, env = {}) {
      const done = spawnSync(command, args, { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
      if (done.error) throw done.error;
      return { status: done.status ?? 1, stdout: done.stdout, stderr: done.stderr };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
