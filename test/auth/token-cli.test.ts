import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { decodeJwt } from 'jose';
import { loadConfig } from '../../src/config';
import { makeApp } from '../support/app';
import { projectRoot } from '../support/server-process';
import { keyPair, SECRET } from './support';
import { tempDir } from '../support/temp';

/**
 * docs/settings.md ("Getting a token"): `npm run token -- --sub alice --scope books:write` mints a token for a
 * local instance with the key its settings name, and prints it alone on stdout. Run on the built script (dist/).
 */

/** Runs the minting script in a folder with no .env, with `env` as its whole AUTH_* environment. */
function mint(args: string[], env: Record<string, string> = {}, script = path.join(projectRoot, 'dist', 'src', 'token.js')) {
  const cwd = tempDir('token-cli-');
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AUTH_')));
  const run = spawnSync(process.execPath, [script, ...args], { cwd, env: { ...clean, ...env }, encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('npm run token', () => {
  it('when given a sub and a scope, then it prints a token the instance with that secret accepts, and nothing else on stdout', async () => {
    const { code, stdout, stderr } = mint(['--sub', 'alice', '--scope', 'books:write'], { AUTH_JWT_SECRET: SECRET });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    expect(stderr).toMatch(/Authorization: Bearer/);
    const jwt = stdout.trim();
    expect(decodeJwt(jwt)).toMatchObject({ sub: 'alice', scope: 'books:write', exp: expect.any(Number) });
    const { http } = makeApp({ config: { auth: loadConfig({ AUTH_JWT_SECRET: SECRET }).auth } });
    await http.post('/books').set('Authorization', `Bearer ${jwt}`).send({ title: 'Minted' }).expect(201);
  });

  it('when given several scopes, an expiry, and an instance with an issuer and an audience, then the token carries them all', () => {
    const { code, stdout } = mint(['--sub', 'bob', '--scope', 'books:write books:read', '--scope', 'metrics:read', '--expires', '30m'], { AUTH_JWT_SECRET: SECRET, AUTH_JWT_ISSUER: 'https://issuer.example', AUTH_JWT_AUDIENCE: 'books-api' });
    expect(code).toBe(0);
    const claims = decodeJwt(stdout.trim());
    expect(claims).toMatchObject({ sub: 'bob', scope: 'books:write books:read metrics:read', iss: 'https://issuer.example', aud: 'books-api' });
    expect(claims.exp! - claims.iat!).toBe(30 * 60);
  });

  it('when the instance checks RS256 tokens, then it signs with the private key given, and refuses another key', async () => {
    const { file, privateKey } = keyPair('rsa');
    const privateFile = path.join(path.dirname(file), 'private.pem');
    writeFileSync(privateFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const signed = mint(['--sub', 'carol', '--scope', 'todos:write', '--private-key-file', privateFile], { AUTH_JWT_PUBLIC_KEY_FILE: file });
    expect(signed.code).toBe(0);
    const { http } = makeApp({ config: { auth: loadConfig({ AUTH_JWT_PUBLIC_KEY_FILE: file }).auth } });
    await http.post('/todos').set('Authorization', `Bearer ${signed.stdout.trim()}`).send({ text: 'Minted' }).expect(201);
    const otherFile = path.join(tempDir('other-key-'), 'private.pem');
    writeFileSync(otherFile, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
    expect(mint(['--sub', 'carol', '--scope', 'todos:write', '--private-key-file', otherFile], { AUTH_JWT_PUBLIC_KEY_FILE: file })).toMatchObject({ code: 1, stdout: '', stderr: 'npm run token: --private-key-file is not the private key of AUTH_JWT_PUBLIC_KEY_FILE\n' });
    expect(mint(['--sub', 'carol', '--scope', 'todos:write'], { AUTH_JWT_PUBLIC_KEY_FILE: file })).toMatchObject({ code: 1, stderr: expect.stringMatching(/--private-key-file <pem>\n$/) });
  });

  it.each([
    ['no key is configured', ['--sub', 'alice', '--scope', 'books:write'], {}, /^npm run token: this instance checks no token: set AUTH_JWT_SECRET/],
    ['a scope no operation needs (a typo)', ['--sub', 'alice', '--scope', 'book:write'], { AUTH_JWT_SECRET: SECRET }, /^npm run token: no operation needs the scope book:write; the contract's scopes are .*books:write/],
    ['no --sub', ['--scope', 'books:write'], { AUTH_JWT_SECRET: SECRET }, /^npm run token: --sub is required/],
    ['no --scope', ['--sub', 'alice'], { AUTH_JWT_SECRET: SECRET }, /^npm run token: --scope is required/],
    ['an unknown option', ['--sub', 'alice', '--scope', 'books:write', '--forever'], { AUTH_JWT_SECRET: SECRET }, /^npm run token: Unknown option '--forever'/],
    ['an expiry that is not a lifetime', ['--sub', 'alice', '--scope', 'books:write', '--expires', 'never'], { AUTH_JWT_SECRET: SECRET }, /^npm run token: --expires must be a lifetime/],
    ['a secret the service would refuse', ['--sub', 'alice', '--scope', 'books:write'], { AUTH_JWT_SECRET: 'short' }, /^npm run token: AUTH_JWT_SECRET must be at least 32 bytes/],
  ])('when %s, then it prints no token and one line that says why', (_what, args, env, message) => {
    const { code, stdout, stderr } = mint(args, env as Record<string, string>);
    expect({ code, stdout, lines: stderr.trimEnd().split('\n').length }).toEqual({ code: 1, stdout: '', lines: 1 });
    expect(stderr).toMatch(message);
  });

  it('when run through npm, then it builds and prints the token alone on stdout', () => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AUTH_') && !name.startsWith('npm_')));
    // The environment wins over any .env of the project (where npm runs the script).
    const run = spawnSync('npm', ['run', '--silent', 'token', '--', '--sub', 'dave', '--scope', 'items:write'], { cwd: projectRoot, env: { ...clean, AUTH_JWT_SECRET: SECRET }, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    expect(decodeJwt(run.stdout.trim())).toMatchObject({ sub: 'dave', scope: 'items:write' });
  });
});
