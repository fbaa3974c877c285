import { createPrivateKey, createPublicKey, createSecretKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Kind, parse, visit } from 'graphql';
import { SignJWT } from 'jose';
import { ConfigError, loadConfig, loadEnvFile, type AuthSettings } from './config';
import { METRICS_SCOPE } from './http/auth';
import { HTTP_METHODS, securityScopes } from './http/spec-routes';
import { loadGraphqlSdl, loadOpenApi } from './spec';
import { SCOPES_DIRECTIVE } from './graphql/scopes';

/**
 * `npm run token -- --sub alice --scope books:write`: mints a bearer token this instance accepts, with the key
 * its settings name (the environment, over the working directory's .env, as the service reads them), and prints
 * it alone on stdout. docs/settings.md ("Getting a token") says how to use it.
 */

const USAGE = 'usage: npm run token -- --sub <who> --scope <scope> [--scope <scope> ...] [--expires 1h] [--private-key-file <pem>]';

/** Lifetimes jose takes that a person writes: a number and a unit, seconds to days. */
const LIFETIME = /^\d+\s*(s|sec|secs|m|min|mins|h|hr|hrs|d|day|days)$/;

/** Every scope the contract names: openapi.yaml's security requirements, schema.graphql's @requiresScopes, and the metrics'. */
export function contractScopes(): Set<string> {
  const scopes = new Set<string>([METRICS_SCOPE]);
  for (const item of Object.values(loadOpenApi().paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (op) for (const scope of securityScopes(op)) scopes.add(scope);
    }
  }
  visit(parse(loadGraphqlSdl()), {
    Directive(node) {
      if (node.name.value !== SCOPES_DIRECTIVE) return;
      for (const arg of node.arguments ?? []) {
        if (arg.value.kind !== Kind.LIST) continue;
        for (const value of arg.value.values) if (value.kind === Kind.STRING) scopes.add(value.value);
      }
    },
  });
  return scopes;
}

/** The key tokens are signed with: the secret for HS256; for RS256/ES256 the private key of the configured public one. */
function signingKey(auth: AuthSettings, privateKeyFile: string | undefined): KeyObject {
  if (auth.algorithm === 'HS256') return createSecretKey(Buffer.from(auth.key, 'utf8'));
  if (!privateKeyFile) throw new ConfigError(`this instance checks ${auth.algorithm} tokens against AUTH_JWT_PUBLIC_KEY_FILE: give the matching private key with --private-key-file <pem>`);
  let key: KeyObject;
  try {
    key = createPrivateKey(readFileSync(privateKeyFile, 'utf8'));
  } catch (err) {
    throw new ConfigError(`--private-key-file cannot be read as a PEM private key (${(err as NodeJS.ErrnoException).code ?? 'not a key'})`);
  }
  const derived = createPublicKey(key).export({ type: 'spki', format: 'pem' });
  if (derived !== createPublicKey(auth.key).export({ type: 'spki', format: 'pem' })) throw new ConfigError('--private-key-file is not the private key of AUTH_JWT_PUBLIC_KEY_FILE');
  return key;
}

export async function mintToken(argv: string[], env: Record<string, string | undefined>): Promise<{ token: string; note: string }> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { sub: { type: 'string' }, scope: { type: 'string', multiple: true }, expires: { type: 'string', default: '1h' }, 'private-key-file': { type: 'string' } },
      strict: true,
    }));
  } catch (err) {
    throw new ConfigError(`${(err as Error).message}; ${USAGE}`);
  }
  const auth = loadConfig(env).auth;
  if (!auth) throw new ConfigError('this instance checks no token: set AUTH_JWT_SECRET (or AUTH_JWT_PUBLIC_KEY_FILE) in .env or the environment first (docs/settings.md)');
  const sub = values.sub?.trim();
  if (!sub) throw new ConfigError(`--sub is required; ${USAGE}`);
  const scopes = [...new Set((values.scope ?? []).flatMap((s) => s.split(/[\s,]+/)).filter(Boolean))];
  if (scopes.length === 0) throw new ConfigError(`--scope is required (at least one); ${USAGE}`);
  const known = contractScopes();
  const unknown = scopes.filter((scope) => !known.has(scope));
  if (unknown.length > 0) throw new ConfigError(`no operation needs the scope ${unknown.join(', ')}; the contract's scopes are ${[...known].sort().join(' ')}`);
  const expires = values.expires.trim();
  if (!LIFETIME.test(expires)) throw new ConfigError(`--expires must be a lifetime such as 30m, 1h or 7d, got "${values.expires}"`);
  const key = signingKey(auth, values['private-key-file']);
  const jwt = new SignJWT({ scope: scopes.join(' ') }).setProtectedHeader({ alg: auth.algorithm, typ: 'JWT' }).setSubject(sub).setIssuedAt().setExpirationTime(expires);
  if (auth.issuer) jwt.setIssuer(auth.issuer);
  if (auth.audience) jwt.setAudience(auth.audience);
  const token = await jwt.sign(key);
  return { token, note: `A ${auth.algorithm} token for ${sub} with ${scopes.join(' ')}, valid for ${expires}: send it as "Authorization: Bearer <token>".` };
}

if (require.main === module) {
  try {
    loadEnvFile();
  } catch (err) {
    process.stderr.write(`npm run token: ${(err as Error).message}\n`);
    process.exit(1);
  }
  mintToken(process.argv.slice(2), process.env).then(
    ({ token, note }) => {
      process.stdout.write(`${token}\n`);
      process.stderr.write(`${note}\n`);
    },
    (err: unknown) => {
      process.stderr.write(`npm run token: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
