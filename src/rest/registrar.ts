import { Router, type Request, type Response } from 'express';
import type { OperationInfo, RouteTable } from './routes';
import type { HandlerInput, Handlers, OperationId, RestContext } from './types';

type AnyHandler = (input: HandlerInput<OperationId>, ctx: RestContext) => unknown;
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
  // The validator has checked these are integers in range; `01` becomes 1.
  for (const name of op.integerParams) params[name] = Number(params[name]);
  return {
    params: params as never,
    query: (req.query ?? {}) as never,
    body: req.body as never,
    path: req.baseUrl + req.path,
  };
}

function writeResult(res: Response, op: OperationInfo, result: AnyResult): void {
  if (result.headers) res.set(result.headers);
  const media = op.responseMedia[result.status];
  if (result.body === undefined || !media) {
    res.status(result.status).end();
  } else if (media === 'text/plain') {
    res.status(result.status).type('text/plain; charset=utf-8').send(String(result.body));
  } else {
    res.status(result.status).json(result.body);
  }
}
