import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Drops every open connection and refuses new ones, as if the server had gone away. */
  cut(): void;
  /** Forwards connections again. */
  restore(): void;
  close(): Promise<void>;
}

/** A loopback TCP proxy to host:port that a test can cut and restore, to simulate a database outage. */
export async function startTcpProxy(host: string, port: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let up = true;
  const server = createServer((client) => {
    if (!up) {
      client.destroy();
      return;
    }
    const upstream = connect(port, host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const cut = () => {
    up = false;
    for (const socket of sockets) socket.destroy();
  };
  return {
    port: (server.address() as { port: number }).port,
    cut,
    restore: () => {
      up = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        cut();
        server.close(() => resolve());
      }),
  };
}

/** `url` with its host and port replaced (to point a client at a proxy). */
export function viaPort(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(port);
  return parsed.toString();
}
