import { Router, type Request, type Response } from 'express';
import { ApiError } from './errors';
import type { OperationInfo, RouteTable } from './routes';
import type { HandlerInput, Handlers, OperationId, RestContext } from './types';

type AnyHandler = (input: HandlerInput<OperationId>, ctx: RestContext) => unknown;
const DECIMAL = /^[0-9]+$/;

interface AnyResult {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * The one place that turns an Express request into typed handler input and a handler's result
 * into the HTTP response. Handlers never see `req` or `res`.
 */
export function restRouter(routes: RouteTable, handlers: Handlers, ctx: RestContext): Router {
  const router = Router();
  for (const route of routes.routes) {
    for (const op of Object.values(route.operations)) {
      const handler = handlers[op.operationId as OperationId] as AnyHandler | undefined;
      if (!handler) throw new Error(`openapi.yaml operation ${op.operationId} has no handler`);
      const method = op.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete' | 'patch';
      router[method](route.expressPath, async (req: Request, res: Response) => {
        const result = (await handler(toInput(req, op), ctx)) as AnyResult;
        writeResult(res, op, result);
      });
    }
  }
  return router;
}

function toInput(req: Request, op: OperationInfo): HandlerInput<OperationId> {
  const params: Record<string, unknown> = { ...req.params };
  // The validator has checked these are integers in range, but it coerces with Number(), which also
  // takes `1e0`, `0x1`, `1.0` and ` 1`. Only decimal digits are an id; `01` is 1.
  for (const name of op.integerParams) {
    const raw = String(params[name]);
    if (!DECIMAL.test(raw)) {
      throw new ApiError(400, `Invalid request: params/${name} must be integer`, [{ path: `/params/${name}`, message: 'must be integer' }]);
    }
    params[name] = Number(raw);
  }
  return {
    params: params as never,
    query: (req.query ?? {}) as never,
    body: req.body as never,
    // Without a trailing slash, so links built from it are canonical (`/books/` is served as `/books`).
    path: (req.baseUrl + req.path).replace(/(.)\/+$/, '$1'),
  };
}

function writeResult(res: Response, op: OperationInfo, result: AnyResult): void {
  if (result.headers) res.set(result.headers);
  const media = op.responseMedia[result.status];
  if (result.body === undefined || !media) {
    res.status(result.status).end();
  } else if (media === 'text/plain') {
    // Plain-text answers are one line, whatever a handler echoed back.
    res.status(result.status).type('text/plain; charset=utf-8').send(String(result.body).replace(/[\r\n]+/g, ' '));
  } else {
    res.status(result.status).json(result.body);
  }
}
