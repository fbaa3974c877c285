import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnService, startService, type ServiceChild } from '../support/server-process';
import { SECRET } from './support';

/**
 * docs/settings.md: settings that cannot protect never start, and the start says whether tokens are checked,
 * and how; reachable from other machines with no access control, it warns. Run on the built service (dist/).
 */

/** The JSON lines a service wrote, parsed. */
const lines = (service: Pick<ServiceChild, 'output'>) =>
  service
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Waits for the process to stop by itself (a start that goes on would not: it is killed after 10 s, and the test fails). */
async function exitOf(service: ServiceChild): Promise<{ code: number | null; output: string }> {
  const timer = setTimeout(() => service.child.kill('SIGKILL'), 10_000);
  const code = await service.exited;
  clearTimeout(timer);
  return { code, output: service.output() };
}

describe('a setting that turns access control on, set to an empty value', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'auth-start-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('when .env gives a secret and the environment an empty AUTH_JWT_SECRET, then the start stops with one line naming it', async () => {
    writeFileSync(path.join(dir, '.env'), `AUTH_JWT_SECRET=${SECRET}\n`);
    const service = spawnService({ PORT: '0', AUTH_JWT_SECRET: '' }, [], 'dist/src/server.js', dir);
    const { code, output } = await exitOf(service);
    expect({ code, lines: output.trimEnd().split('\n').length }).toEqual({ code: 1, lines: 1 });
    expect(output).toMatch(/^Invalid setting: AUTH_JWT_SECRET is set but empty/);
  });

  it.each(['AUTH_JWT_PUBLIC_KEY_FILE', 'AUTH_READS', 'AUTH_JWT_ISSUER'])('when the environment gives %s empty over a .env with a secret, then the start stops naming it', async (name) => {
    writeFileSync(path.join(dir, '.env'), `AUTH_JWT_SECRET=${SECRET}\n${name}=from-dotenv\n`);
    const { code, output } = await exitOf(spawnService({ PORT: '0', [name]: '' }, [], 'dist/src/server.js', dir));
    expect(code).toBe(1);
    expect(output).toMatch(new RegExp(`^Invalid setting: ${name} is set but empty`));
  });

  it('when the secret is one byte (AUTH_JWT_SECRET=a), then the start stops with one line that says why', async () => {
    const { code, output } = await exitOf(spawnService({ PORT: '0', AUTH_JWT_SECRET: 'a' }, [], 'dist/src/server.js', dir));
    expect({ code, output }).toEqual({ code: 1, output: expect.stringMatching(/^Invalid setting: AUTH_JWT_SECRET must be at least 32 bytes \(RFC 7518 §3\.2\), got 1: [^\n]*\n$/) });
  });
});

describe('the start line says whether tokens are checked, and how', () => {
  const started = async (env: Record<string, string>) => {
    const service = await startService(env);
    try {
      // startService returns once /health answers, which may be before its pipe has brought the lines the start
      // wrote before it. The health check's own request line is written after them all: once it is here, they are.
      while (!/"path":"\/health"[^\n]*"msg":"request"\}\n/.test(service.output())) await new Promise((r) => setTimeout(r, 20));
      return lines(service);
    } finally {
      service.child.kill('SIGKILL');
    }
  };

  it('when no key is set, then it listens on loopback only, says tokens are not checked, and warns of nothing', async () => {
    const log = await started({});
    expect(log.find((line) => line.msg === 'listening')).toMatchObject({ host: '127.0.0.1', auth: 'off: no token is checked' });
    expect(log.filter((line) => line.level === 'warn')).toEqual([]);
  });

  it('when AUTH_JWT_SECRET is set, then it says bearer tokens are checked with HS256, and how reads are', async () => {
    const log = await started({ AUTH_JWT_SECRET: SECRET, AUTH_READS: 'token', AUTH_JWT_ISSUER: 'https://issuer.example' });
    expect(log.find((line) => line.msg === 'listening')?.auth).toBe('bearer tokens checked (HS256, AUTH_JWT_SECRET; iss https://issuer.example): writes need their scope, reads need their scope too');
  });

  it('when HOST opens it to other machines with no key set, then one warn line says so', async () => {
    const log = await started({ HOST: '0.0.0.0' });
    expect(log.find((line) => line.msg === 'listening')).toMatchObject({ host: '0.0.0.0', auth: 'off: no token is checked' });
    const warnings = log.filter((line) => line.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toMatch(/^reachable from other machines with no access control/);
  });

  it('when HOST opens it to other machines with a key set, then nothing is warned', async () => {
    const log = await started({ HOST: '0.0.0.0', AUTH_JWT_SECRET: SECRET });
    expect(log.find((line) => line.msg === 'listening')?.auth).toMatch(/^bearer tokens checked/);
    expect(log.filter((line) => line.level === 'warn')).toEqual([]);
  });
});
