import { readFileSync } from 'node:fs';
import { makeSender, type KitContext } from './context';
import { Fixtures } from './fixtures';
import { runGraphqlChecks } from './graphql-checks';
import { Reporter } from './reporter';
import { runConventionChecks } from './rest-conventions';
import { runExampleChecks } from './rest-examples';
import { runNegativeChecks } from './rest-negative';
import { SpecSchemas } from '../../src/spec-schemas';
import { SpecModel } from './spec-model';

export interface KitOptions {
  baseUrl: string;
  /** openapi.yaml (or .json) to test against; undefined skips the REST checks. */
  openapiFile?: string;
  /** schema.graphql to test against; undefined skips the GraphQL checks. */
  graphqlSchemaFile?: string;
  graphqlPath?: string;
  /** Where lines go (stdout in the CLI). */
  write: (line: string) => void;
}

export interface KitResult {
  passed: number;
  failed: number;
  failures: string[];
}

/** Runs the whole kit against a running service and returns the tally (the summary line is printed last). */
export async function runContractKit(options: KitOptions): Promise<KitResult> {
  const reporter = new Reporter(options.write);
  if (options.openapiFile) {
    const spec = new SpecModel(options.openapiFile);
    const ctx: KitContext = {
      baseUrl: options.baseUrl,
      spec,
      validator: new SpecSchemas(spec.doc, { allErrors: true }),
      reporter,
      note: options.write,
      send: makeSender(options.baseUrl),
    };
    const fixtures = new Fixtures(ctx);
    try {
      await runExampleChecks(ctx, fixtures);
      await runNegativeChecks(ctx, fixtures);
      await runConventionChecks(ctx, fixtures);
    } finally {
      await fixtures.cleanUp();
    }
  }
  if (options.graphqlSchemaFile) {
    const ctx = { baseUrl: options.baseUrl, reporter, note: options.write, send: makeSender(options.baseUrl) } as KitContext;
    await runGraphqlChecks(ctx, readFileSync(options.graphqlSchemaFile, 'utf8'), options.graphqlPath);
  }
  options.write(reporter.summary());
  return { passed: reporter.passed, failed: reporter.failed, failures: reporter.failures };
}
