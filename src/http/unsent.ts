import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface UnsentLimits {
  /** A connection whose client accepts none of its pending bytes for this long is destroyed. */
  writeTimeoutMs: number;
  /** Most pending response bytes over all connections; over it, the connections holding the most are destroyed. */
  maxUnsentBytes: number;
}

/** What the last sweep saw of one connection: bytes its client had accepted, and since when that number stood still. */
interface Progress {
  accepted: number;
  since: number;
}

/**
 * Bounds what clients that do not read can make the process hold. Node has no write timeout: a response
 * to a client that never reads stays buffered (`socket.writableLength`) until the socket closes, so a
 * few hundred such clients asking for a big list grow memory without bound.
 *
 * One periodic sweep over the open connections (nothing per request): a connection with pending
 * bytes whose client accepted none of them for `writeTimeoutMs` is destroyed; then, while the pending
 * bytes of all connections together exceed `maxUnsentBytes`, the connections holding the most are
 * destroyed. The sweep runs every quarter of the write timeout, at most every 250 ms, so memory stays
 * within `maxUnsentBytes` plus what the process can produce in one interval.
 */
export function guardUnsentResponses(server: Server, limits: UnsentLimits): void {
  const connections = new Map<Socket, Progress>();
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { accepted: 0, since: 0 });
    socket.once('close', () => connections.delete(socket));
  });
  const sweep = () => {
    const now = Date.now();
    const holding: Socket[] = [];
    let total = 0;
    for (const [socket, progress] of connections) {
      const pending = socket.writableLength;
      if (pending === 0) {
        progress.since = 0;
        continue;
      }
      // Bytes whose write completed (handed to the kernel): written so far minus those still pending.
      const accepted = socket.bytesWritten - pending;
      if (progress.since === 0 || accepted !== progress.accepted) {
        progress.accepted = accepted;
        progress.since = now;
      } else if (now - progress.since >= limits.writeTimeoutMs) {
        socket.destroy();
        continue;
      }
      total += pending;
      holding.push(socket);
    }
    if (total <= limits.maxUnsentBytes) return;
    holding.sort((a, b) => b.writableLength - a.writableLength);
    for (const socket of holding) {
      if (total <= limits.maxUnsentBytes) break;
      total -= socket.writableLength;
      socket.destroy();
    }
  };
  const timer = setInterval(sweep, Math.max(10, Math.min(250, Math.floor(limits.writeTimeoutMs / 4))));
  timer.unref();
  server.once('close', () => clearInterval(timer));
}
