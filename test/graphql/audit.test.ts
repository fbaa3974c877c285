import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serverAudits } from 'graphql-http';
import { makeApp } from '../support/app';
import { limits } from './support';

/**
 * graphql-http's own GraphQL-over-HTTP conformance audits, run over real HTTP against the service
 * listening on an ephemeral port. Every audit (MUST, SHOULD and MAY) must pass.
 */
/** Run twice: as first runs (graphql-js) and with every query compiled from its first run (graphql-jit). */
describe.each([
  { mode: 'first run: graphql-js', compileAfter: 1 },
  { mode: 'hot: compiled', compileAfter: 0 },
])('GraphQL over HTTP audits (graphql-http serverAudits), $mode', ({ compileAfter }) => {
  let server: Server;
  let url = '';

  beforeAll(async () => {
    const { app } = makeApp({ config: limits({ compileAfter }) });
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
  });

  const audits = serverAudits({ url: () => url });

  it('when the audit list is built, then it holds the MUST and SHOULD audits', () => {
    expect(audits.filter((a) => a.name.startsWith('MUST')).length).toBeGreaterThan(5);
    expect(audits.filter((a) => a.name.startsWith('SHOULD')).length).toBeGreaterThan(5);
  });

  for (const audit of audits) {
    it(`${audit.name} (${audit.id})`, async () => {
      const result = await audit.fn();
      const reason = result.status === 'ok' ? '' : `${result.reason}\n${result.response ? await result.response.text() : ''}`;
      expect({ status: result.status, reason }).toEqual({ status: 'ok', reason: '' });
    });
  }
});
