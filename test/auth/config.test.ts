import { writeFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { keyPair, SECRET } from './support';
import { tempDir } from '../support/temp';

describe('AUTH_* settings', () => {
  it('with none set, auth is off', () => {
    expect(loadConfig({}).auth).toBeUndefined();
  });

  it('AUTH_JWT_SECRET turns on HS256, reads public unless AUTH_READS=token', () => {
    expect(loadConfig({ AUTH_JWT_SECRET: SECRET }).auth).toEqual({ algorithm: 'HS256', key: SECRET, issuer: undefined, audience: undefined, reads: 'public' });
    expect(loadConfig({ AUTH_JWT_SECRET: SECRET, AUTH_READS: 'token', AUTH_JWT_ISSUER: 'i', AUTH_JWT_AUDIENCE: 'a' }).auth).toMatchObject({ reads: 'token', issuer: 'i', audience: 'a' });
  });

  it('an HS256 secret of 32 bytes is accepted, and 31 bytes is not (RFC 7518 §3.2)', () => {
    expect(loadConfig({ AUTH_JWT_SECRET: 'x'.repeat(32) }).auth?.algorithm).toBe('HS256');
    expect(() => loadConfig({ AUTH_JWT_SECRET: 'x'.repeat(31) })).toThrow('AUTH_JWT_SECRET must be at least 32 bytes (RFC 7518 §3.2), got 31');
    // Bytes, not characters: 11 three-byte characters are 33 bytes.
    expect(loadConfig({ AUTH_JWT_SECRET: '€'.repeat(11) }).auth?.algorithm).toBe('HS256');
  });

  it('AUTH_JWT_PUBLIC_KEY_FILE takes an RSA (RS256) or P-256 (ES256) key', () => {
    expect(loadConfig({ AUTH_JWT_PUBLIC_KEY_FILE: keyPair('rsa').file }).auth?.algorithm).toBe('RS256');
    expect(loadConfig({ AUTH_JWT_PUBLIC_KEY_FILE: keyPair('ec').file }).auth?.algorithm).toBe('ES256');
  });

  it.each<[string, () => Record<string, string>, RegExp]>([
    ['both a secret and a key file', () => ({ AUTH_JWT_SECRET: SECRET, AUTH_JWT_PUBLIC_KEY_FILE: keyPair('ec').file }), /both set/],
    ['a one-byte secret (the issue\'s AUTH_JWT_SECRET=a)', () => ({ AUTH_JWT_SECRET: 'a' }), /^AUTH_JWT_SECRET must be at least 32 bytes .*got 1:/],
    ...['AUTH_JWT_SECRET', 'AUTH_JWT_PUBLIC_KEY_FILE', 'AUTH_JWT_ISSUER', 'AUTH_JWT_AUDIENCE', 'AUTH_READS'].map(
      (name): [string, () => Record<string, string>, RegExp] => [`${name} set to an empty value`, () => ({ [name]: '' }), new RegExp(`^${name} is set but empty`)],
    ),
    ['AUTH_JWT_SECRET set to spaces', () => ({ AUTH_JWT_SECRET: '   ' }), /^AUTH_JWT_SECRET is set but empty/],
    ['an empty AUTH_READS beside a secret', () => ({ AUTH_JWT_SECRET: SECRET, AUTH_READS: '' }), /^AUTH_READS is set but empty/],
    ['an unreadable key file', () => ({ AUTH_JWT_PUBLIC_KEY_FILE: path.join(tmpdir(), 'no-such-dir', 'key.pem') }), /cannot be read \(ENOENT\)/],
    ['a key file that is no PEM key', () => ({ AUTH_JWT_PUBLIC_KEY_FILE: textFile('not a key') }), /PEM public key/],
    ['an EC key on another curve', () => ({ AUTH_JWT_PUBLIC_KEY_FILE: textFile(generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).publicKey.export({ type: 'spki', format: 'pem' }) as string) }), /RSA or EC P-256/],
    ['a bad AUTH_READS', () => ({ AUTH_JWT_SECRET: SECRET, AUTH_READS: 'sometimes' }), /AUTH_READS must be one of public, token/],
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
  const file = path.join(tempDir('auth-config-'), 'key.pem');
  writeFileSync(file, text);
  return file;
}
