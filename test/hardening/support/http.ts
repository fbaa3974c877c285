import { Agent, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpServer } from '../../../src/http/http-server';
import type { TestApp } from '../../support/app';
import { testConfig, type Config } from '../../../src/config';
import type { Answer } from './spec';

export interface Listening {
  server: Server;
  port: number;
  send(req: { method: string; path: string; headers?: Record<string, string>; body?: Buffer | string }): Promise<Answer>;
  close(): Promise<void>;
}

/** Serves a test app on a free loopback port through the production server factory (same limits). */
export async function listen(app: TestApp['app'], config: Partial<Config> = {}): Promise<Listening> {
  const server = createHttpServer(app, testConfig(config));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const send: Listening['send'] = ({ method, path, headers = {}, body }) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(body);
      const req = request(
        { host: '127.0.0.1', port, method, path, agent, headers: { ...(payload ? { 'content-length': String(payload.length) } : {}), ...headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  const close = () =>
    new Promise<void>((resolve) => {
      agent.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { server, port, send, close };
}
