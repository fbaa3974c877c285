import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { SignJWT, type JWTPayload } from 'jose';
import { loadConfig, type AuthSettings } from '../../src/config';
import { HTTP_METHODS, securityScopes } from '../../src/http/spec-routes';
import { SchemaSampler } from '../../src/mock/sample';
import { loadOpenApi } from '../../src/spec';
import { tempDir } from '../support/temp';

export const SECRET = 'a-test-secret-that-is-at-least-32-bytes-long';

/** The settings AUTH_JWT_SECRET gives, read as the service reads them. */
export function hs256(env: Record<string, string> = {}): AuthSettings {
  return loadConfig({ AUTH_JWT_SECRET: SECRET, ...env }).auth!;
}

/** A token signed with the test secret: `sub` alice, valid for 5 minutes, with the given scope claim and claims. */
export async function token(scope: string | undefined, claims: JWTPayload = {}, { secret = SECRET, expires = '5m' as string | number } = {}): Promise<string> {
  const jwt = new SignJWT({ ...(scope === undefined ? {} : { scope }), ...claims }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(String(claims.sub ?? 'alice')).setIssuedAt();
  if (expires !== '') jwt.setExpirationTime(expires);
  return jwt.sign(new TextEncoder().encode(secret));
}

/** An unsigned token (`alg: none`) with every scope. */
export function unsecured(scope: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ sub: 'mallory', scope, exp: Math.floor(Date.now() / 1000) + 300 })}.`;
}

/** A key pair of `type`, its public key in a temporary PEM file. */
export function keyPair(type: 'rsa' | 'ec'): { file: string; privateKey: import('node:crypto').KeyObject } {
  const { publicKey, privateKey } = type === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const dir = tempDir('auth-key-');
  const file = path.join(dir, 'public.pem');
  writeFileSync(file, publicKey.export({ type: 'spki', format: 'pem' }));
  return { file, privateKey };
}

export interface SpecOperation {
  operationId: string;
  method: string;
  /** The path with `{id}` as 1. */
  path: string;
  /** The operation's own scope: `<collection>:write` for a write, `<collection>:read` for a read. */
  scope: string;
  /** Every scope its bearer requirement names (a write that answers a record names the read scope too). */
  scopes: string[];
  body: unknown;
  /** The body's media type: `application/json`, or a PATCH's `application/merge-patch+json`. */
  contentType: string | undefined;
  errorFormat: 'json' | 'text';
  /** A success answer carries a body (a stored record or a list of them). */
  answersRecord: boolean;
}

/** Every operation openapi.yaml gives a scope, with a path and a body (the spec's example) to call it with. */
export function scopedOperations(): SpecOperation[] {
  const doc = loadOpenApi();
  const sampler = new SchemaSampler(doc);
  const deref = (value: unknown): Record<string, unknown> => {
    const ref = (value as { $ref?: string })?.$ref;
    if (!ref) return value as Record<string, unknown>;
    const [, , section, name] = ref.split('/');
    return deref((doc.components as Record<string, Record<string, unknown>>)[section][name]);
  };
  const out: SpecOperation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      const scopes = op ? securityScopes(op) : [];
      if (!op || scopes.length === 0) continue;
      const scope = method === 'get' ? scopes[0] : scopes.find((s) => s.endsWith(':write'))!;
      const content = deref(op.requestBody)?.content as Record<string, Record<string, unknown>> | undefined;
      const contentType = content && Object.keys(content)[0];
      const media = contentType ? content[contentType] : undefined;
      const examples = media?.examples as Record<string, { value: unknown }> | undefined;
      const body = media ? (media.example ?? (examples ? Object.values(examples)[0].value : sampler.sample(media.schema))) : undefined;
      const responses = Object.entries(op.responses as Record<string, unknown>).map(([status, r]) => [status, deref(r)] as const);
      const textErrors = responses.some(([status, r]) => status.startsWith('4') && Object.keys((r.content as object) ?? {})[0] === 'text/plain');
      const answersRecord = responses.some(([status, r]) => status.startsWith('2') && Object.keys((r.content as object) ?? {}).length > 0);
      out.push({ operationId: String(op.operationId), method: method.toUpperCase(), path: template.replace(/\{[^}]+\}/g, '1'), scope, scopes, body, contentType, errorFormat: textErrors ? 'text' : 'json', answersRecord });
    }
  }
  return out;
}
