import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { GateResult, Level } from '../../scripts/contract-diff/gate';

export const FIXTURES = path.join(__dirname, 'fixtures');
export const ROOT = path.resolve(__dirname, '..', '..');

export const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');

/** The changes of one level as `where: message`, with [announced] / [refused] on breaking ones. */
export function lines(result: GateResult, level: Level): string[] {
  return result.changes
    .filter((c) => c.level === level)
    .map((c) => `${c.where}: ${c.message}${c.announced === undefined ? '' : c.announced ? ' [announced]' : ' [refused]'}`);
}
