import type { Express, Response } from 'express';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Speed trick (fenced in src/http/perf/, see ./README.md): `res.json` for this app's responses writes the
 * JSON with Node's own `end`, instead of express's `json` then `send` (settings lookups, a second
 * Content-Type pass through `res.set`, ETag and freshness checks this app switches off or decides itself:
 * the registrar answers conditional requests before it writes). What is sent is the same: `JSON.stringify`
 * of the value, `Content-Type: application/json; charset=utf-8` unless one is set, `Content-Length`
 * (a HEAD answer keeps it, without the body), and no body nor content headers on a 204 or 304.
 *
 * It is set on `app.response`, the prototype express gives this app's responses (not express's shared
 * one), so the response validator, which wraps each response's `json` in tests, still sees every body.
 * Measured in BENCHMARKS.md ("Issue 12, second session"). Guarded by test/hardening/perf-tricks.test.ts:
 * a served JSON answer goes through this function and not through express's `send`, with the same headers.
 */
export function leanJson(app: Express): void {
  (app.response as Response).json = function json(this: Response, value: unknown) {
    const status = this.statusCode;
    if (status === 204 || status === 304) {
      this.removeHeader('Content-Type');
      this.removeHeader('Content-Length');
      this.end();
      return this;
    }
    const text = JSON.stringify(value) ?? '';
    if (!this.hasHeader('Content-Type')) this.setHeader('Content-Type', JSON_TYPE);
    this.setHeader('Content-Length', Buffer.byteLength(text));
    this.end(text);
    return this;
  };
}
