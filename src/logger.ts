import pino from 'pino';
import type { LogLevel } from './config';

/**
 * The service's logger: pino, writing one JSON object per line,
 * `{"level":"info","time":"<ISO>", ...fields, "msg":"..."}`. Errors under `err` or `error` are
 * expanded to `{name, message, stack}`. A request's lines carry its `requestId`: the request line is written with
 * it, and the others come from the request's child logger (`state.log`, made on first use, src/http/phases.ts).
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
 * docs/maintainers/design.md ("Speed tricks").
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

/** Control, format (bidi overrides such as U+202E, zero-width), line and paragraph separator characters, lone surrogates, and the backslash. */
const UNPRINTABLE = /[\\\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/**
 * Text a client chose (a token's `sub`), as a log line shows it: every character that could hide, reorder or
 * break what a terminal or a log viewer shows is written as `\uXXXX` (the backslash as `\\`), so the log says
 * exactly what was sent. JSON escapes only the control characters, and U+202E would reverse the rest of the line.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => (c === '\\' ? '\\\\' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
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
