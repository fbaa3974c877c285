import pino from 'pino';
import type { LogLevel } from './config';

/**
 * The service's logger: pino, writing one JSON object per line,
 * `{"level":"info","time":"<ISO>", ...fields, "msg":"..."}`. Errors under `err` or `error` are
 * expanded to `{name, message, stack}`. A request's lines come from its child logger
 * (`state.log`, see src/http/phases.ts), which adds `requestId` to each.
 * Call it pino's way: `log.info({ fields }, 'message')` or `log.info('message')`.
 */
export type Logger = pino.Logger;

/** Where lines go instead of stdout (tests); it receives one complete line, newline included, per call. */
export type LogSink = (line: string) => void;

function serialiseError(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

/**
 * pino's `stdTimeFunctions.isoTime`, formatted at most once per millisecond (many lines share one); measured in
 * docs/design.md ("Speed tricks").
 */
function isoTimeCached(): () => string {
  let lastMs = -1;
  let last = '';
  return () => {
    const now = Date.now();
    if (now !== lastMs) {
      lastMs = now;
      last = `,"time":"${new Date(now).toISOString()}"`;
    }
    return last;
  };
}

export function createLogger(level: LogLevel, sink?: LogSink): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: null,
    messageKey: 'msg',
    timestamp: isoTimeCached(),
    formatters: { level: (label) => ({ level: label }) },
    serializers: { err: serialiseError, error: serialiseError },
  };
  // Without a sink: pino's own synchronous stdout writer, so the last line before process.exit() is not lost.
  return sink ? pino(options, { write: sink }) : pino(options);
}
