import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createApp, type AppDeps } from '../../src/app';
import { testConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { projectRoot } from '../../src/spec';
import type { Store } from '../../src/store/types';
import { makeStore } from '../support/app';

export const OPENAPI = path.join(projectRoot, 'openapi.yaml');
export const SCHEMA = path.join(projectRoot, 'schema.graphql');

export interface RunningService {
  baseUrl: string;
  store: Store;
  close: () => Promise<void>;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

/**
 * The service on an ephemeral port of the loopback interface, on a fresh default-seeded store, as a
 * real HTTP server (the kit talks HTTP like any client). `overrides` builds a broken variant.
 */
export async function startService(overrides: Partial<AppDeps> = {}): Promise<RunningService> {
  const store = makeStore();
  const app = createApp({ store, config: testConfig(), logger: createLogger('silent'), ...overrides });
  const server = createServer(app);
  const baseUrl = await listen(server);
  return {
    baseUrl,
    store,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound, then released). */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  const url = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return url;
}
