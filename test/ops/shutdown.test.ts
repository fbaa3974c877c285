import { startService } from '../support/server-process';

/** Resolves once the service's output matches `pattern` (checked as output arrives; the jest timeout catches a hang). */
async function outputMatches(output: () => string, pattern: RegExp): Promise<void> {
  while (!pattern.test(output())) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('readiness during shutdown (dist/src/server.js)', () => {
  it('when it gets SIGTERM with SHUTDOWN_DRAIN_MS, then /health/ready answers 503 draining while liveness and requests are still served; a second signal ends the drain and it exits 0', async () => {
    // A drain far longer than the test: only the second signal can end it.
    const service = await startService({ SHUTDOWN_DRAIN_MS: '600000' });
    try {
      expect((await fetch(`${service.baseUrl}/health/ready`)).status).toBe(200);
      service.child.kill('SIGTERM');
      await outputMatches(service.output, /"msg":"shutting down"/);

      const ready = await fetch(`${service.baseUrl}/health/ready`);
      expect({ status: ready.status, body: await ready.json() }).toEqual({ status: 503, body: { status: 'draining', storage: 'sqlite' } });
      const live = await fetch(`${service.baseUrl}/health/live`);
      expect({ status: live.status, body: await live.json() }).toEqual({ status: 200, body: { status: 'ok' } });
      // New connections are still accepted and served while load balancers take the instance out.
      expect((await fetch(`${service.baseUrl}/books/1`)).status).toBe(200);
      expect(service.output()).not.toMatch(/"msg":"stopped"/);

      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
      expect(service.output()).toMatch(/"msg":"stopped"/);
    } finally {
      service.child.kill('SIGKILL');
    }
  });
});
