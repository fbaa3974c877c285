import { connect, type Socket } from 'node:net';

export interface RawResult {
  /** Everything the server wrote before it closed the connection (or before `waitMs`). */
  text: string;
  status: number | undefined;
  closed: boolean;
  ms: number;
  /** A write failed (EPIPE, ECONNRESET): the server closed the connection before it took the whole request. */
  writeFailed: boolean;
}

/**
 * Writes `chunks` to a raw TCP connection (each after `gapMs`) and collects what comes back until the
 * server closes the connection or `waitMs` passes. For requests no HTTP client would send.
 */
export function rawExchange(port: number, chunks: (string | Buffer)[], opts: { gapMs?: number; waitMs?: number } = {}): Promise<RawResult> {
  const { gapMs = 0, waitMs = 5000 } = opts;
  return new Promise((resolve) => {
    const started = Date.now();
    const socket: Socket = connect(port, '127.0.0.1');
    let text = '';
    let done = false;
    let writeFailed = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ text, status: match ? Number(match[1]) : undefined, closed, ms: Date.now() - started, writeFailed });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.once('connect', async () => {
      for (const chunk of chunks) {
        if (done || socket.destroyed) return;
        socket.write(chunk, (err) => (writeFailed ||= err != null));
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
    });
  });
}
