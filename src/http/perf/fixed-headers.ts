import type { RequestHandler } from 'express';

/**
 * Speed trick (one of the fenced ones, see ./README.md): a middleware that sets the same headers on every
 * response (helmet with fixed options; cors when any origin is allowed) is run once at start-up against
 * a recording response, and its headers are then set from that list on each response instead of
 * running the library per request (the protect phase sets them, src/http/security.ts). It is recorded
 * against a plain GET with no headers.
 * Guarded by test/hardening/perf-tricks.test.ts: each recorded list must equal what the real library
 * sets on a real request, so an upgrade that makes a header depend on the request switches the test red.
 */
export function recordFixedHeaders(middleware: RequestHandler): [string, string][] {
  const req = { method: 'GET', headers: {} };
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.push([name, String(value)]),
    getHeader: () => undefined,
    removeHeader: () => undefined,
  };
  let continued = false;
  middleware(req as never, recorder as never, () => (continued = true));
  if (!continued || headers.length === 0) throw new Error('a fixed-headers middleware set no headers or did not continue: its headers would be missing');
  return headers;
}
