import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

type RequestClass = typeof IncomingMessage;
type ResponseClass = typeof ServerResponse;

/**
 * Request and response classes for `app`, whose instances are born with the app's own prototypes
 * (`app.request`, `app.response`), in V8's fast-property mode, and stay in it.
 *
 * Two costs, neither of which any function of a CPU profile carries (both slow every later property
 * access on the request and the response: Node's, express's, the validator's and the service's own):
 * - Express gives every request and response the app's prototypes with `Object.setPrototypeOf` as it
 *   enters the app. Changing the prototype of a live object makes V8 drop its optimised shape. On an
 *   object born with that prototype the call changes nothing.
 * - How much room V8 gives an object for its properties depends on its constructor. Plain functions
 *   calling Node's constructors gave objects room for a handful: their thirty-odd properties went to a
 *   separate store, and the first property added by a computed key (Node's own `res[kUniqueHeaders]`)
 *   turned them into dictionaries. Classes that extend Node's get the room Node's own objects get.
 *
 * Both are measured in docs/maintainers/design.md ("Speed tricks"), with the commands that measure them again.
 *
 * The classes' prototypes sit between the instances and the prototypes express made for the app, and
 * become the app's `request` and `response`: the chain is express's own with one empty link, and
 * express finds every request already on the app's prototype; mounted in another
 * app, the prototypes express made still link to the parent's, as express links them. Installed
 * once per app, by `createApp` before it reads those prototypes; `createHttpServer` asks for them
 * again (or installs them on an app made elsewhere).
 *
 * Speed trick (fenced in src/http/perf/). Guarded by test/http-server.test.ts (requests and responses have
 * the app's prototypes when the server's `request` event fires, before express runs); what it saves is
 * measured by `node bench/express-classes.js` (docs/maintainers/design.md, "Speed tricks").
 */
export function expressClasses(app: Express): { IncomingMessage: RequestClass; ServerResponse: ResponseClass } {
  if (!ownClassOf(app.request) || !ownClassOf(app.response)) {
    class AppRequest extends IncomingMessage {}
    class AppResponse extends ServerResponse {}
    const made = { request: app.request, response: app.response };
    /** The classes' prototypes on the ones express made for this app, and those on a mounting parent's. */
    const link = (parent?: Express) => {
      Object.setPrototypeOf(AppRequest.prototype, made.request);
      Object.setPrototypeOf(AppResponse.prototype, made.response);
      if (!parent) return;
      Object.setPrototypeOf(made.request, parent.request);
      Object.setPrototypeOf(made.response, parent.response);
    };
    link();
    app.request = AppRequest.prototype as Express['request'];
    app.response = AppResponse.prototype as unknown as Express['response'];
    // Mounted in another app, express links app.request and app.response to the parent's: the link belongs one
    // step further, on the prototypes express made for this app (which hold `app` and this app's own methods).
    app.on('mount', (parent: unknown) => link(parent as Express));
  }
  return { IncomingMessage: ownClassOf(app.request) as RequestClass, ServerResponse: ownClassOf(app.response) as ResponseClass };
}

/** The class whose prototype `proto` is, when it was made here (an own `constructor` pointing back). */
function ownClassOf(proto: object): (new (...args: never[]) => unknown) | undefined {
  const ctor = Object.hasOwn(proto, 'constructor') ? (proto as { constructor: unknown }).constructor : undefined;
  return typeof ctor === 'function' && ctor.prototype === proto ? (ctor as new (...args: never[]) => unknown) : undefined;
}
