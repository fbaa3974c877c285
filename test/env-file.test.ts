import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadEnvFile } from '../src/config';
import { spawnService, startService } from './support/server-process';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'env-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `text` as dir/.env and returns its path. */
const envFile = (text: string) => {
  const file = path.join(dir, '.env');
  writeFileSync(file, text);
  return file;
};

describe('loadEnvFile: the .env file under the environment', () => {
  it('when there is no .env, then the environment is left as it is', () => {
    const env = { PORT: '1234' };
    loadEnvFile(env, path.join(dir, '.env'));
    expect(env).toEqual({ PORT: '1234' });
  });

  it('when .env sets variables, then those the environment lacks are added and those it has (even empty) keep their value', () => {
    const file = envFile(
      [
        '# a comment',
        'PORT=4000',
        'export LOG_LEVEL=warn',
        '',
        'CORS_ORIGINS = "https://a.example,https://b.example" # trailing comment',
        'HOST=',
        "SEED='empty'",
        'MULTI="first',
        'second"',
        'METRICS_PATH=/from-file\r',
      ].join('\n'),
    );
    const env: Record<string, string | undefined> = { PORT: '5000', HOST: 'from-env', SEED: '' };
    loadEnvFile(env, file);
    expect(env).toEqual({
      PORT: '5000',
      HOST: 'from-env',
      SEED: '',
      LOG_LEVEL: 'warn',
      CORS_ORIGINS: 'https://a.example,https://b.example',
      MULTI: 'first\nsecond',
      METRICS_PATH: '/from-file',
    });
  });

  it('when a line of .env is not NAME=value, then a one-line ConfigError names the file and the line', () => {
    const file = envFile('PORT=4000\nLOG_LEVEL warn\n');
    const env = {};
    let thrown: unknown;
    try {
      loadEnvFile(env, file);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toBe(`${file} line 2 is not NAME=value: "LOG_LEVEL warn"`);
    expect(env).toEqual({});
  });

  it('when .env cannot be read (a folder), then a ConfigError says so', () => {
    const file = path.join(dir, '.env');
    mkdirSync(file);
    expect(() => loadEnvFile({}, file)).toThrow(new ConfigError(`${file} cannot be read (EISDIR)`));
  });
});

describe('the service process reads the .env of its working directory', () => {
  const metrics = async (baseUrl: string, route: string) => (await fetch(`${baseUrl}${route}`)).status;

  it('when .env sets METRICS_PATH, then the metrics are served there', async () => {
    envFile('METRICS_PATH=/from-dotenv\n');
    const service = await startService({}, undefined, dir);
    try {
      expect(await metrics(service.baseUrl, '/from-dotenv')).toBe(200);
      expect(await metrics(service.baseUrl, '/metrics')).toBe(404);
    } finally {
      service.child.kill('SIGKILL');
    }
  });

  it('when the environment sets METRICS_PATH too, then the environment wins', async () => {
    envFile('METRICS_PATH=/from-dotenv\n');
    const service = await startService({ METRICS_PATH: '/from-env' }, undefined, dir);
    try {
      expect(await metrics(service.baseUrl, '/from-env')).toBe(200);
      expect(await metrics(service.baseUrl, '/from-dotenv')).toBe(404);
    } finally {
      service.child.kill('SIGKILL');
    }
  });

  it('when .env is malformed, then the start stops with one line naming the line, and exit code 1', async () => {
    envFile('PORT=4000\nLOG_LEVEL warn\n');
    const service = spawnService({ PORT: '0' }, [], 'dist/src/server.js', dir);
    // A start that goes on regardless says so ("starting" comes after the settings are read): it is stopped then,
    // and the test fails on what it printed.
    const started = new Promise<'started'>((resolve) => service.child.stdout!.on('data', () => service.output().includes('"msg":"starting"') && resolve('started')));
    const code = await Promise.race([service.exited, started]);
    if (code === 'started') service.child.kill('SIGKILL');
    expect({ code, output: service.output() }).toEqual({ code: 1, output: 'Invalid setting: .env line 2 is not NAME=value: "LOG_LEVEL warn"\n' });
  });
});
