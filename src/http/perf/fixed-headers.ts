import type { RequestHandler } from 'express';

/**
 * Speed trick (one of the fenced ones, see ./README.md): helmet with fixed options sets the same headers
 * on every response, so they are recorded once at start-up by running it against a recording response,
 * and set from that list on each response instead of running helmet's dozen middlewares per request.
 * Guarded by test/hardening/perf-tricks.test.ts: the recorded list must equal what real helmet sets
 * on a real request, so an upgrade that makes a header depend on the request switches the test red.
 */
export function recordFixedHeaders(middleware: RequestHandler): [string, string][] {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  middleware({} as never, recorder as never, () => undefined);
  return headers;
}
