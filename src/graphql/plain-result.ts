import type { ExecutionResult } from 'graphql';
import type { Response } from 'graphql-http';

/**
 * A speed trick, kept because it measured worth it. graphql-http serialises every result with a
 * replacer function (to hide non-GraphQL Error objects), which makes JSON.stringify call back for
 * every value. A result with data and no errors holds no Error objects (its leaves are serialised
 * scalars), so `onOperation` answers it itself with a plain JSON.stringify, as the Response that
 * graphql-http would have built (200 and the negotiated media type). Results with errors, and every
 * other answer, are still serialised by graphql-http.
 *
 * Measured with `node bench/compare.js <this build> <a build without the trick> --only=gql-nested,gql-books
 * --rounds=5 --duration=4` (pinned, 2 cores): without it, the nested users/posts/comments query served
 * 0.81x the requests per second (CPU per request +17%). test/graphql/plain-result.test.ts fails if it
 * stops applying or if graphql-http's negotiation moves away from the copy below.
 */
export function plainResult(accept: string | undefined, result: ExecutionResult | undefined): Response {
  // Without a result, the Response only says how to answer (an empty body): the caller writes the result
  // itself (a large answer, in chunks).
  const body = result === undefined ? '' : JSON.stringify(result);
  return [body, { status: 200, statusText: 'OK', headers: { 'content-type': `${negotiatedMediaType(accept)}; charset=utf-8` } }];
}

/**
 * graphql-http 1.x's own Accept negotiation (lib/handler.js, createHandler), which it keeps to itself:
 * the first acceptable entry wins, `q` weights are not read. Only called for requests graphql-http has
 * accepted (it answers 406 before any hook otherwise).
 */
function negotiatedMediaType(accept: string | undefined): 'application/graphql-response+json' | 'application/json' {
  for (const entry of (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',')) {
    const [mediaType, ...params] = entry.split(';');
    const charset = params.find((param) => param.includes('charset=')) || 'charset=utf-8';
    if (mediaType === 'application/graphql-response+json' && charset === 'charset=utf-8') return 'application/graphql-response+json';
    if ((mediaType === 'application/json' || mediaType === 'application/*' || mediaType === '*/*') && (charset === 'charset=utf-8' || charset === 'charset=utf8')) {
      return 'application/json';
    }
  }
  return 'application/json';
}
