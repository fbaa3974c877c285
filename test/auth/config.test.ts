import { mkdtempSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { keyPair } from './support';

describe('AUTH_* settings', () => {
  it('with none set, auth is off', () => {
    expect(loadConfig({}).auth).toBeUndefined();
  });

  it('AUTH_JWT_SECRET turns on HS256, reads public unless AUTH_READS=token', () => {
    expect(loadConfig({ AUTH_JWT_SECRET: 's3cret' }).auth).toEqual({ algorithm: 'HS256', key: 's3cret', issuer: undefined, audience: undefined, reads: 'public' });
    expect(loadConfig({ AUTH_JWT_SECRET: 's3cret', AUTH_READS: 'token', AUTH_JWT_ISSUER: 'i', AUTH_JWT_AUDIENCE: 'a' }).auth).toMatchObject({ reads: 'token', issuer: 'i', audience: 'a' });
  });

  it('AUTH_JWT_PUBLIC_KEY_FILE takes an RSA (RS256) or P-256 (ES256) key', () => {
    expect(loadConfig({ AUTH_JWT_PUBLIC_KEY_FILE: keyPair('rsa').file }).auth?.algorithm).toBe('RS256');
    expect(loadConfig({ AUTH_JWT_PUBLIC_KEY_FILE: keyPair('ec').file }).auth?.algorithm).toBe('ES256');
  });

  it.each([
    ['both a secret and a key file', () => ({ AUTH_JWT_SECRET: 'x', AUTH_JWT_PUBLIC_KEY_FILE: keyPair('ec').file }), /both set/],
    ['an unreadable key file', () => ({ AUTH_JWT_PUBLIC_KEY_FILE: path.join(tmpdir(), 'no-such-dir', 'key.pem') }), /cannot be read \(ENOENT\)/],
    ['a key file that is no PEM key', () => ({ AUTH_JWT_PUBLIC_KEY_FILE: textFile('not a key') }), /PEM public key/],
    ['an EC key on another curve', () => ({ AUTH_JWT_PUBLIC_KEY_FILE: textFile(generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).publicKey.export({ type: 'spki', format: 'pem' }) as string) }), /RSA or EC P-256/],
    ['a bad AUTH_READS', () => ({ AUTH_JWT_SECRET: 'x', AUTH_READS: 'sometimes' }), /AUTH_READS must be one of public, token/],
    ['an issuer with no key', () => ({ AUTH_JWT_ISSUER: 'https://issuer.example' }), /need AUTH_JWT_SECRET or AUTH_JWT_PUBLIC_KEY_FILE/],
    ['AUTH_READS=token with no key', () => ({ AUTH_READS: 'token' }), /AUTH_READS=token need AUTH_JWT_SECRET/],
  ])('%s stops the start with one line that says why', (_what, env, message) => {
    let error: unknown;
    try {
      loadConfig(env());
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toMatch(/\n/);
  });
});

function textFile(text: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'auth-config-')), 'key.pem');
  writeFileSync(file, text);
  return file;
}
