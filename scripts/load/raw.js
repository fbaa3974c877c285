'use strict';
// Clients on raw TCP connections, to see an answer's bytes as the socket gets them: whether a chunked answer
// ends with its last chunk (`0\r\n\r\n`), and who closed the connection.
const fs = require('node:fs');
const net = require('node:net');
const { until } = require('./http');

/** The HTTP/1.1 request text of `method path` with an optional JSON body. */
function requestText(method, path, body) {
  if (body === undefined) return `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`;
  const payload = JSON.stringify(body);
  return `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`;
}

/**
 * An answer's bytes taken apart: status, headers (lower-case names), body (de-chunked), and whether the body
 * is complete: all of Content-Length, or a chunked body up to and including its last chunk; when it is, `end` is
 * where the next answer on the connection starts.
 */
function parseAnswer(bytes) {
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd < 0) return { status: 0, headers: {}, body: Buffer.alloc(0), complete: false, chunked: false };
  const [statusLine, ...lines] = bytes.subarray(0, headEnd).toString('latin1').split('\r\n');
  const headers = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const raw = bytes.subarray(headEnd + 4);
  const chunked = /chunked/i.test(headers['transfer-encoding'] ?? '');
  if (!chunked) {
    const length = Number(headers['content-length'] ?? NaN);
    const complete = raw.length >= length;
    return { status, headers, body: raw.subarray(0, length), complete, chunked, ...(complete ? { end: headEnd + 4 + length } : {}) };
  }
  const parts = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(raw.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isInteger(size)) break;
    if (size === 0) {
      // The last chunk: `0\r\n`, no trailers, then the blank line.
      const complete = raw.subarray(lineEnd + 2, lineEnd + 4).toString('latin1') === '\r\n';
      return { status, headers, body: Buffer.concat(parts), complete, chunked, ...(complete ? { end: headEnd + 4 + lineEnd + 4 } : {}) };
    }
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
    if (raw.length < at) break;
  }
  return { status, headers, body: Buffer.concat(parts), complete: false, chunked };
}

/** Every answer in the bytes of one connection, in order: all complete but maybe the last. */
function parseAnswers(bytes) {
  const answers = [];
  for (let rest = bytes; rest.length > 0; ) {
    const answer = parseAnswer(rest);
    answers.push(answer);
    if (answer.end === undefined) break;
    rest = rest.subarray(answer.end);
  }
  return answers;
}

/**
 * How many bytes the kernel may buffer for one loopback connection, both ways (the largest receive and send
 * buffers, net.ipv4.tcp_rmem and tcp_wmem): an answer longer than this cannot be swallowed whole by a client
 * that does not read. Read from /proc; 64 MiB each way where it cannot be read.
 */
function kernelBufferBytes() {
  const largest = (name) => {
    try {
      return Number(fs.readFileSync(`/proc/sys/net/ipv4/${name}`, 'utf8').trim().split(/\s+/)[2]) || 64 * 1024 * 1024;
    } catch {
      return 64 * 1024 * 1024;
    }
  };
  return largest('tcp_rmem') + largest('tcp_wmem');
}

/**
 * Opens a connection and sends `request`; reads nothing until asked. `connected` resolves once the request is
 * written. `read()` takes what comes until the answer is complete (or, with `untilClose`, until the server
 * closes the connection), and resolves with the bytes, whether the connection was closed (by the server: this
 * side never closes first) and whether it ended the last bytes it got exactly with `0\r\n\r\n`. No read has a
 * time bound of its own (the load test's hang guard aside, ./http.js).
 */
function rawClient(port, request) {
  let written;
  let localPort;
  const connected = new Promise((resolve) => (written = resolve));
  const socket = net.connect(port, '127.0.0.1', () => {
    localPort = socket.localPort; // kept: a destroyed socket no longer knows it
    socket.write(request, () => written());
  });
  socket.pause();
  const chunks = [];
  let received = 0;
  let closed = false;
  let head; // where the body starts and how it is framed, once the head is in
  let tail = Buffer.alloc(0); // the last 5 bytes received
  let onProgress = () => undefined;
  socket.on('data', (d) => {
    chunks.push(d);
    received += d.length;
    tail = Buffer.concat([tail, d.subarray(-5)]).subarray(-5);
    onProgress();
  });
  socket.on('error', () => undefined);
  socket.once('close', () => {
    closed = true;
    onProgress();
  });
  const bytes = () => Buffer.concat(chunks);
  const endsWithLastChunk = () => tail.toString('latin1') === '0\r\n\r\n';
  // Whether the whole answer is in, without taking the bytes apart again at each read (JSON has no raw CR LF,
  // so in a chunked body `0\r\n\r\n` at the end is the last chunk).
  const complete = () => {
    if (!head) {
      const all = bytes();
      const end = all.indexOf('\r\n\r\n');
      if (end < 0) return false;
      const { chunked, headers } = parseAnswer(all.subarray(0, end + 4));
      head = { bodyAt: end + 4, chunked, length: Number(headers['content-length'] ?? NaN) };
    }
    return head.chunked ? endsWithLastChunk() : received >= head.bodyAt + head.length;
  };
  /** Resolves once `done()` holds (checked at each byte and at the close), reading meanwhile. */
  const readWhile = async (done) => {
    let finished = false;
    onProgress = () => {
      finished ||= done();
    };
    socket.resume();
    onProgress();
    await until('an answer or a close on a load-test connection', () => finished);
    onProgress = () => undefined;
  };
  return {
    socket,
    connected,
    /** The connection's local port (from the moment it is connected). */
    get localPort() {
      return localPort;
    },
    /** Reads until `enough(bytes received)` holds or the connection closes, then stops reading. */
    async readUntil(enough) {
      await readWhile(() => closed || enough(received));
      socket.pause();
      return received;
    },
    async read({ untilClose = false } = {}) {
      await readWhile(() => closed || (!untilClose && complete()));
      socket.destroy();
      const raw = bytes();
      return { ...parseAnswer(raw), raw, closed, endsWithLastChunk: endsWithLastChunk(), bytes: received };
    },
  };
}

/**
 * The client ports of the connections to `port` in one of `states` on the server's side, from /proc/net/tcp:
 * ESTABLISHED (01) by default; CLOSE_WAIT (08) is a connection its client closed that the server has not yet let go.
 */
function openOnServer(port, states = ['01']) {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const open = new Set();
  for (const line of fs.readFileSync('/proc/net/tcp', 'utf8').split('\n')) {
    const [, local, remote, state] = line.trim().split(/\s+/);
    if (states.includes(state) && local?.endsWith(`:${hex}`)) open.add(parseInt(remote.split(':')[1], 16));
  }
  return open;
}

/**
 * Waits until the server has closed its side of each of `clients`' connections to `port` (while they read
 * nothing, so they cannot see it yet); the clients' requests must have been written (`client.connected`), or an
 * unaccepted connection would count as closed. Resolves with how many it closed (all of them: a server that never
 * closes one is a hang, caught by the load test's guard), and when the last one was closed (ms from the call, a
 * figure to print).
 */
async function closedByServer(port, clients) {
  const started = Date.now();
  const ports = clients.map((client) => client.localPort);
  let closed = 0;
  let lastAt = NaN;
  await until(`the server closing ${ports.length} connections itself`, () => {
    const open = openOnServer(port);
    const now = ports.filter((p) => p !== undefined && !open.has(p)).length;
    if (now > closed) lastAt = Date.now() - started;
    closed = now;
    return closed === ports.length;
  });
  return { closed, lastAt };
}

/** Waits until the service has let go of each of `clients`' connections to `port` (they closed theirs): none is ESTABLISHED or CLOSE_WAIT on its side. */
async function releasedByServer(port, clients) {
  const ports = clients.map((client) => client.localPort);
  await until(`the service letting go of ${ports.length} closed connections`, () => {
    const held = openOnServer(port, ['01', '08']);
    return ports.every((p) => p === undefined || !held.has(p));
  });
}

module.exports = { rawClient, requestText, parseAnswer, parseAnswers, kernelBufferBytes, closedByServer, releasedByServer };
