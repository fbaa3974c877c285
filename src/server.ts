import cluster from 'node:cluster';
import type { Server } from 'node:http';
import { createApp } from './app';
import { runPrimary } from './cluster';
import { ConfigError, loadConfig } from './config';
import { createHttpServer } from './http/http-server';
import { createLogger } from './logger';
import { createStore } from './store';

/** Reads the settings, builds the dependencies, listens, and shuts down cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Invalid setting: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  if (cluster.isPrimary && config.workers > 1) {
    // WORKERS=n: this process only supervises; each worker comes back here and serves.
    runPrimary(config.workers, logger);
    return;
  }
  const store = await createStore(config, logger);
  const app = createApp({ store, config, logger });
  // Header size, header/request/keep-alive timeouts and the connection cap come from the settings.
  const server: Server = createHttpServer(app, config);
  server.listen({ port: config.port, host: config.host });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info('listening', { port, host: config.host ?? '(all interfaces)', storage: store.kind });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    const force = setTimeout(() => {
      logger.warn('shutdown timeout: closing remaining connections');
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    force.unref();
    server.close(async () => {
      await store.close();
      logger.info('stopped');
      process.exit(0);
    });
    // Keep-alive connections become idle as their in-flight requests finish: close them as they do.
    server.closeIdleConnections();
    setInterval(() => server.closeIdleConnections(), 100).unref();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`Failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
