import type { Response } from 'express';

/**
 * The Content-Security-Policy of the two UI pages: every script, style, image, font and request is
 * this service's own ('self'). The only relaxation beyond 'self' is `data:` for images and fonts,
 * which swagger-ui.css and graphiql.min.css embed (icons, fonts). No inline script, no eval.
 */
const UI_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers for every response of the docs module (spec files and assets). */
export function setCommonHeaders(res: Response): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

/** Headers for the two HTML pages. */
export function setPageHeaders(res: Response): void {
  setCommonHeaders(res);
  res.setHeader('Content-Security-Policy', UI_CSP);
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cache-Control', 'no-cache');
}
