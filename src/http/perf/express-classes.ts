import { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

type RequestClass = typeof IncomingMessage;
type ResponseClass = typeof ServerResponse;

/**
 * Request and response classes whose instances are born with the app's own prototypes
 * (`app.request`, `app.response`). Express gives every request and response those prototypes with
 * `Object.setPrototypeOf` as it enters the app; on an object that already has them, that call changes
 * nothing. Changing the prototype of a live object makes V8 drop its optimised shape and slows
 * every later property access on it: measured on a plain express 5 route, 3.1x more req/s with
 * these classes (BENCHMARKS.md, "What each change bought"). Nothing else changes: the prototype
 * chain is exactly the one express builds.
 *
 * Speed trick (fenced in src/http/perf/): it relies on express re-setting the prototype only with
 * `Object.setPrototypeOf` on an object that has it already. Guarded by test/hardening/perf-tricks.test.ts
 * through the real createHttpServer: a served request has `app.request` as its prototype from birth.
 */
export function expressClasses(app: Express): { IncomingMessage: RequestClass; ServerResponse: ResponseClass } {
  // Plain constructor functions calling Node's (which are functions, not ES classes): `Reflect.construct`
  // with a new target would do the same, but measured 0.7x the req/s of express's own setPrototypeOf.
  const initRequest = IncomingMessage as unknown as (this: IncomingMessage, socket: Socket) => void;
  const initResponse = ServerResponse as unknown as (this: ServerResponse, req: IncomingMessage, options?: unknown) => void;
  function AppRequest(this: IncomingMessage, socket: Socket): void {
    initRequest.call(this, socket);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: ServerResponse, req: IncomingMessage, options?: unknown): void {
    initResponse.call(this, req, options);
  }
  AppResponse.prototype = app.response;
  return { IncomingMessage: AppRequest as unknown as RequestClass, ServerResponse: AppResponse as unknown as ResponseClass };
}

