import cluster from 'node:cluster';
import type { Server } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { accessControl, ConfigError, isLoopback, loadConfig, loadEnvFile } from './config';
import { createLogger } from './logger';
// The rest (express, graphql, the store) is loaded inside main(), after the signal handlers are
// installed, so a SIGTERM during start-up is a clean exit too.

/** Reads the settings, builds the dependencies, listens, and shuts down cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  // Installed first, before anything is logged or loaded: a SIGTERM/SIGINT that arrives while the
  // service is still starting is kept, instead of killing the process, and honoured right before it
  // would listen (a clean exit 0, never `listening`).
  let stop: ((signal: string) => void) | undefined;
  let requested: string | undefined;
  const onSignal = (signal: string) => (stop ? stop(signal) : (requested ??= signal));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));

  let config;
  try {
    // The working directory's .env, if any, under the environment (a variable already set wins).
    loadEnvFile();
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Invalid setting: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  logger.info({ pid: process.pid }, 'starting');
  if (cluster.isPrimary && config.workers > 1) {
    const { runPrimary } = await import('./cluster.js');
    // WORKERS=n: this process only supervises; each worker comes back here and serves.
    runPrimary(config.workers, logger);
    return;
  }
  const [{ createStore }, { createApp }, { createHttpServer }] = await Promise.all([
    import('./store/index.js'),
    import('./app.js'),
    import('./http/http-server.js'),
  ]);
  const store = await createStore(config, logger);
  // Read by /health/ready: 503 `draining` from the first SIGTERM/SIGINT on.
  const lifecycle = { draining: false };
  const app = createApp({ store, config, logger, lifecycle });
  // Header size, header/request/keep-alive timeouts and the connection cap come from the settings.
  const server: Server = createHttpServer(app, config);
  // A signal's handler runs when the event loop polls for I/O, and start-up may not have let it since
  // the signal came (on Node 24 loading the modules does not yield, createApp never does, a memory
  // store opens without I/O). Two turns: when start-up goes on from an I/O callback, the first ends
  // the loop's current round without polling again; the second comes after a poll.
  await nextTurn();
  await nextTurn();
  if (requested) {
    await store.close();
    logger.info({ signal: requested }, 'stopped before listening');
    process.exit(0);
  }
  server.listen({ port: config.port, host: config.host });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ port, host: config.host, storage: store.kind, auth: accessControl(config.auth) }, 'listening');
  if (!config.auth && !(typeof address === 'object' && address && isLoopback(address.address))) {
    logger.warn(
      { host: config.host },
      'reachable from other machines with no access control: anyone who can connect may change the data; set AUTH_JWT_SECRET or AUTH_JWT_PUBLIC_KEY_FILE, or HOST=127.0.0.1 (docs/settings.md)',
    );
  }

  const close = () => {
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
  stop = (signal: string) => {
    stop = () => undefined;
    lifecycle.draining = true;
    logger.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down');
    if (config.shutdownDrainMs === 0) return close();
    // Load balancers see /health/ready turn 503 and stop sending while requests are still served.
    // A second signal does not wait for the rest of the drain.
    const drained = setTimeout(close, config.shutdownDrainMs);
    stop = () => {
      stop = () => undefined;
      clearTimeout(drained);
      close();
    };
  };
  if (requested) stop(requested);
}

main().catch((err: unknown) => {
  process.stderr.write(`Failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
