// The breaking-change gate over both contracts: classify every change (openapi.ts, graphql.ts), then
// decide which breaking changes were announced. Used by `npm run contract:diff` (cli.ts) and by
// `npm run dev` on every spec save, so there is one classifier.
//
// Announced means: the contract version (openapi.yaml `info.version`, the one version of the whole
// service contract, REST and GraphQL) has a higher major than in the base, AND, for a removal, the
// removed thing was already deprecated in the base (deprecate, keep serving, remove after the bump).
import { buildSchema, type GraphQLSchema } from 'graphql';
import { parse } from 'yaml';
import type { Change, Level } from './change';
import { diffGraphql } from './graphql';
import { diffOpenApi } from './openapi';

export type { Change, Level } from './change';

/** The text of each spec file; a missing one is not compared. */
export interface Specs {
  openapi?: string;
  graphql?: string;
}

export interface Verdict extends Change {
  /** Breaking changes only: true when announced, so the gate lets it through. */
  announced?: boolean;
  /** Why it was (not) let through. */
  note?: string;
}

export interface GateResult {
  changes: Verdict[];
  baseVersion?: string;
  headVersion?: string;
  majorBumped: boolean;
  /** Some breaking change is not announced: the gate fails. */
  failed: boolean;
}

export const FILES = { openapi: 'openapi.yaml', graphql: 'schema.graphql' } as const;

/** Parses openapi.yaml; throws one line naming the file when it does not parse. */
export function parseOpenApi(text: string): Record<string, any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new Error(`${FILES.openapi} does not parse: ${String((err as Error).message).split('\n')[0]}`);
  }
  if (!doc || typeof doc !== 'object') throw new Error(`${FILES.openapi} does not parse: not a YAML mapping`);
  return doc;
}

/** Builds schema.graphql; throws one line naming the file when it is not a valid schema. */
export function parseGraphql(text: string): GraphQLSchema {
  try {
    return buildSchema(text);
  } catch (err) {
    throw new Error(`${FILES.graphql} does not parse: ${String((err as Error).message).split('\n')[0]}`);
  }
}

const major = (version: unknown) => {
  const m = /^v?(\d+)(\.|$)/.exec(String(version ?? ''));
  return m ? Number(m[1]) : undefined;
};

const ORDER: Record<Level, number> = { breaking: 0, dangerous: 1, safe: 2 };

export async function checkContracts(base: Specs, head: Specs): Promise<GateResult> {
  const [baseDoc, headDoc] = [base.openapi, head.openapi].map((t) => (t === undefined ? undefined : parseOpenApi(t)));
  const [baseSchema, headSchema] = [base.graphql, head.graphql].map((t) => (t === undefined ? undefined : parseGraphql(t)));
  const changes: Change[] = [
    ...(baseDoc && headDoc ? diffOpenApi(baseDoc, headDoc) : []),
    ...(baseSchema && headSchema ? await diffGraphql(baseSchema, headSchema) : []),
  ];
  const [baseVersion, headVersion] = [baseDoc?.info?.version, headDoc?.info?.version].map((v) => (v === undefined ? undefined : String(v)));
  const [from, to] = [major(baseVersion), major(headVersion)];
  const majorBumped = from !== undefined && to !== undefined && to > from;

  const verdicts = changes.map((c): Verdict => {
    if (c.level !== 'breaking') return c;
    if (c.removal && !c.deprecated) {
      return { ...c, announced: false, note: 'not deprecated in the base: deprecate it first, keep serving it, remove it after a major version bump' };
    }
    if (!majorBumped) {
      const what = c.removal ? 'deprecated in the base; to remove it, ' : 'to announce it, ';
      return { ...c, announced: false, note: `${what}bump the major of info.version in ${FILES.openapi} (${baseVersion ?? 'none'})` };
    }
    return { ...c, announced: true, note: `announced: ${c.removal ? 'deprecated in the base, ' : ''}version ${baseVersion} -> ${headVersion}` };
  });
  verdicts.sort((a, b) => ORDER[a.level] - ORDER[b.level]);
  return { changes: verdicts, baseVersion, headVersion, majorBumped, failed: verdicts.some((v) => v.announced === false) };
}

/** The gate's report: one line per change, then a summary line. */
export function formatReport(result: GateResult): string[] {
  const lines = result.changes.map((c) => {
    const where = c.where ? `${c.where}: ` : '';
    const note = c.note ? `  [${c.note}]` : '';
    return `${c.level.toUpperCase().padEnd(9)} ${FILES[c.contract].padEnd(14)} ${where}${c.message}${note}`;
  });
  const count = (level: Level) => result.changes.filter((c) => c.level === level).length;
  const refused = result.changes.filter((c) => c.announced === false).length;
  const version = result.baseVersion === result.headVersion ? `version ${result.headVersion}` : `version ${result.baseVersion} -> ${result.headVersion}`;
  lines.push(
    `${count('breaking')} breaking (${refused} not announced), ${count('dangerous')} dangerous, ${count('safe')} safe; ${version}: ` +
      (result.failed ? 'FAIL' : 'ok'),
  );
  return lines;
}
