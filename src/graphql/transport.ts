import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseRequestParams, type Request, type RequestParams, type Response } from 'graphql-http';
import type { Config } from '../config';
import { jsonMediaType, readTextBody } from '../http/body';
import type { GraphqlMetrics } from '../ops/metrics';
import { ApiError, errorBody } from '../http/errors';
import { JSON_TYPE } from '../http/send';
import { MASKED_MESSAGE } from './masking';

/**
 * Answers that come before any GraphQL execution (method, media type, body size, a failure of the
 * server) carry the service's JSON error object (`error`, docs/contract.md) and a GraphQL-style
 * `errors` list, so both kinds of client read them.
 */
const TRANSPORT_ERRORS: Record<number, string> = {
  405: 'Method not allowed: /graphql takes GET (queries only) and POST',
  406: 'Not acceptable: /graphql answers application/graphql-response+json or application/json',
  413: 'Request body is too large',
  415: 'Unsupported media type: POST bodies must be application/json',
  500: MASKED_MESSAGE,
};

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/**
 * A transport error as graphql-http's Response: `{error, errors: [{message}]}` for the statuses above,
 * `{errors: [{message}]}` for any other (a body that is not UTF-8, say: a GraphQL client's 400).
 */
export function transportError(status: number, message = TRANSPORT_ERRORS[status] ?? MASKED_MESSAGE, headers?: Record<string, string>): Response {
  const body = status in TRANSPORT_ERRORS ? errorBody('graphql', message) : { errors: [{ message }] };
  return [JSON.stringify(body), { status, statusText: STATUS_TEXT[status] ?? '', headers: { ...headers, 'content-type': JSON_TYPE } }];
}

/** A GraphQL-shaped error answer with a code (`{errors: [{message, extensions: {code}}]}`), before or instead of execution. */
export function codedError(status: number, message: string, code: string, headers?: Record<string, string>): Response {
  const body = JSON.stringify({ errors: [{ message, extensions: { code } }] });
  return [body, { status, statusText: STATUS_TEXT[status] ?? '', headers: { 'content-type': JSON_TYPE, ...headers } }];
}

/**
 * graphql-http answers a wrong method (405), an unacceptable Accept (406) and a media type it does not
 * parse (415) with no body, and a mutation over GET (405) with a GraphQL error but no media type: they get
 * this service's transport error body (with graphql-http's message, if it gave one), keeping graphql-http's
 * status and headers (`Allow`, `Accept`). Any other answer passes as it is.
 */
export function withTransportBody(response: Response): Response {
  const [body, init] = response;
  if (body !== null && init.headers?.['content-type'] !== undefined) return response;
  const message = body === null ? undefined : (JSON.parse(body) as { errors?: { message?: string }[] }).errors?.[0]?.message;
  return transportError(init.status, message, init.headers as Record<string, string> | undefined);
}

/** What the request-parsing hook needs of the raw request: the Node request and response, as Express gives them. */
export interface RawExchange {
  raw: IncomingMessage & { res?: ServerResponse };
}

/**
 * graphql-http's `parseRequestParams` hook: reads a POST's JSON body with the shared reader (limit,
 * charset, content encoding: 413, 415, 400) and hands the text to graphql-http's own parser, which
 * judges the method, the media type and the parameters.
 */
export function requestParamsReader(config: Config, metrics: GraphqlMetrics) {
  return async <Raw extends RawExchange['raw'], Context>(req: Request<Raw, Context>): Promise<RequestParams | Response> => {
    let body: string | null = null;
    if (req.method === 'POST') {
      const media = jsonMediaType(req.raw);
      if (!media) return transportError(415);
      try {
        body = await readTextBody(req.raw, req.raw.res!, config, media);
      } catch (err) {
        if (!(err instanceof ApiError)) return transportError(400, 'The request body could not be read.');
        if (err.status === 413) metrics.refused('body_size');
        return transportError(err.status, err.message, err.headers as Record<string, string> | undefined);
      }
    }
    // A literal, not a spread of `req` with its body replaced: one hidden class for every request (src/store/model.ts, `settled`).
    const parsed = await parseRequestParams({ method: req.method, url: req.url, headers: req.headers, body, raw: req.raw, context: req.context });
    return Array.isArray(parsed) ? withTransportBody(parsed as Response) : parsed;
  };
}
