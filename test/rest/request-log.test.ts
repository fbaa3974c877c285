import { logRequest } from '../../src/http/phases';
import { createLogger } from '../../src/logger';

function lines(write: (logger: ReturnType<typeof createLogger>) => void, level: 'info' | 'warn' = 'info'): Record<string, unknown>[] {
  const out: string[] = [];
  write(createLogger(level, (line) => out.push(line)));
  for (const line of out) expect(line.endsWith('\n') && !line.slice(0, -1).includes('\n')).toBe(true);
  return out.map((line) => JSON.parse(line));
}

describe('the per-request log line', () => {
  const fields = { method: 'GET', path: '/books/"1"\\\n', status: 200, durationMs: 0.125, requestId: 'abc-1' };
  const { requestId, ...lineFields } = fields;
  const requestLine = (logger: ReturnType<typeof createLogger>, aborted: boolean, sub?: string) => logRequest(logger, requestId, { ...lineFields, aborted, sub });
  const withoutTime = (line: string) => line.replace(/"time":"[^"]*"/, '"time":""');

  it('when a request is logged, then it is one JSON line with the same fields as info("request", ...)', () => {
    const [fast] = lines((logger) => requestLine(logger, false));
    const [slow] = lines((logger) => logger.info(fields, 'request'));
    expect(typeof fast.time).toBe('string');
    expect({ ...fast, time: undefined }).toEqual({ ...slow, time: undefined });
    expect(fast.path).toBe('/books/"1"\\\n');
    expect('aborted' in fast).toBe(false);
  });

  it('when a request is logged, then its line has the bytes of the same fields written by the request\'s child logger', () => {
    for (const [aborted, sub] of [[false, undefined], [true, undefined], [false, 'alice'], [true, 'alice']] as const) {
      const out: string[] = [];
      const logger = createLogger('info', (line) => out.push(withoutTime(line)));
      requestLine(logger, aborted, sub);
      logger.child({ requestId }).info({ ...lineFields, ...(sub === undefined ? {} : { sub }), ...(aborted ? { aborted } : {}) }, 'request');
      expect(out).toHaveLength(2);
      expect(out[0]).toBe(out[1]);
    }
  });

  it('when the client went away, then the line says aborted: true', () => {
    const [line] = lines((logger) => requestLine(logger, true));
    expect(line.aborted).toBe(true);
  });

  it('when the level is above info, then no request line is written', () => {
    expect(lines((logger) => requestLine(logger, false), 'warn')).toEqual([]);
  });
});
