import path from 'node:path';
import { runContractKit } from './run';

const USAGE = `usage: npm run test:contract -- --base-url <url> [--openapi <file>] [--schema <file>] [--graphql-path /graphql] [--only rest|graphql]

Runs the contract tests of openapi.yaml and schema.graphql against a running service.
Prints one line per check and "N passed, N failed"; exits 1 when a check failed, 2 on bad usage.`;

interface Args {
  baseUrl?: string;
  openapi: string;
  schema: string;
  graphqlPath: string;
  only?: 'rest' | 'graphql';
}

function parseArgs(argv: string[], root: string): Args | string {
  const args: Args = { openapi: path.join(root, 'openapi.yaml'), schema: path.join(root, 'schema.graphql'), graphqlPath: '/graphql' };
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = inline ?? argv[++i];
    if (value === undefined) return `${flag} needs a value`;
    if (flag === '--base-url') args.baseUrl = value;
    else if (flag === '--openapi') args.openapi = path.resolve(value);
    else if (flag === '--schema') args.schema = path.resolve(value);
    else if (flag === '--graphql-path') args.graphqlPath = value;
    else if (flag === '--only' && (value === 'rest' || value === 'graphql')) args.only = value;
    else return `unknown option ${argv[i]}`;
  }
  if (!args.baseUrl) return '--base-url is required';
  try {
    const url = new URL(args.baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return '--base-url must be an http(s) URL';
  } catch {
    return `--base-url is not a URL: ${args.baseUrl}`;
  }
  return args;
}

/** The CLI: returns the exit code (0 all passed, 1 a check failed, 2 bad usage or the service is unreachable). */
export async function main(argv: string[], write: (line: string) => void, root = process.cwd()): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    write(USAGE);
    return 0;
  }
  const args = parseArgs(argv, root);
  if (typeof args === 'string') {
    write(`${args}\n${USAGE}`);
    return 2;
  }
  try {
    await fetch(args.baseUrl!, { method: 'HEAD', signal: AbortSignal.timeout(5000) });
  } catch (err) {
    write(`cannot reach ${args.baseUrl}: ${(err as Error).cause ?? (err as Error).message}`);
    write('0 passed, 1 failed');
    return 2;
  }
  const result = await runContractKit({
    baseUrl: args.baseUrl!,
    openapiFile: args.only === 'graphql' ? undefined : args.openapi,
    graphqlSchemaFile: args.only === 'rest' ? undefined : args.schema,
    graphqlPath: args.graphqlPath,
    write,
  });
  return result.failed > 0 ? 1 : 0;
}

if (require.main === module) {
  main(process.argv.slice(2), (line) => process.stdout.write(`${line}\n`)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`contract kit crashed: ${(err as Error)?.stack ?? String(err)}\n`);
      process.exitCode = 2;
    },
  );
}
