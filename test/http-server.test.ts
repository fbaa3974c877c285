import type { AddressInfo } from 'node:net';
import express from 'express';
import { createHttpServer } from '../src/http/http-server';
import { testConfig } from '../src/config';
import request from 'supertest';
import { makeApp } from './support/app';

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

  it('when the service is mounted in another express app, then it answers through it and its prototypes still hold its own app', async () => {
    const { app } = makeApp();
    const parent = express();
    parent.use(app);
    const ok = await request(parent).get('/books/1').expect(200);
    expect(ok.body).toEqual({ id: 1, title: 'The Hobbit', pages: 310 });
    const refused = await request(parent).get('/books/abc').expect(400);
    expect(refused.body.error).toMatch(/^Invalid request/);
    // express links a mounted app's prototypes to the parent's; the service's own stay in between.
    expect((app.request as unknown as { app: unknown }).app).toBe(app);
    expect(Object.getPrototypeOf(Object.getPrototypeOf(app.request))).toBe(parent.request);
  });
});
