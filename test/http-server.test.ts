import type { AddressInfo } from 'node:net';
import express from 'express';
import { createHttpServer } from '../src/http/http-server';
import { testConfig } from '../src/config';

describe('createHttpServer', () => {
  it("when a request reaches the app, then its request and response were born with the app's prototypes", async () => {
    const app = express();
    // Checked before express's own Object.setPrototypeOf could have run: at the server's 'request' event.
    const seen: { request?: boolean; response?: boolean } = {};
    app.get('/probe', (req, res) => {
      res.json({ request: Object.getPrototypeOf(req) === app.request, response: Object.getPrototypeOf(res) === app.response, ...seen });
    });
    const server = createHttpServer(app, testConfig());
    server.prependListener('request', (req, res) => {
      seen.request = Object.getPrototypeOf(req) === app.request;
      seen.response = Object.getPrototypeOf(res) === app.response;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/probe?x=1`, { headers: { 'x-test': 'yes' } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ request: true, response: true });
      expect(seen).toEqual({ request: true, response: true });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
