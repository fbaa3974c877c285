import type { LogLevel } from './config';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** The fixed fields of the one line every request writes (see src/http/request-context.ts). */
export interface RequestLogFields {
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
  aborted: boolean;
}

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /**
   * The per-request line at level info: the same JSON as `info('request', fields)` (`aborted: true`
   * only when set), built from a template because it is written for every request.
   */
  request(fields: RequestLogFields): void;
}

export type LogSink = (line: string) => void;

function serialiseError(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

/** The ISO time of `Date.now()`, formatted at most once per millisecond (many lines share one). */
function isoClock(): () => string {
  let lastMs = -1;
  let lastIso = '';
  return () => {
    const now = Date.now();
    if (now !== lastMs) {
      lastMs = now;
      lastIso = new Date(now).toISOString();
    }
    return lastIso;
  };
}

/** One JSON object per line: {time, level, msg, ...fields}. Errors in fields are expanded with their stack. */
export function createLogger(level: LogLevel, sink: LogSink = (line) => process.stdout.write(line)): Logger {
  const threshold = RANK[level];
  const now = isoClock();
  const write = (lvl: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: Record<string, unknown>) => {
    if (RANK[lvl] < threshold) return;
    const entry: Record<string, unknown> = { time: now(), level: lvl, msg };
    if (fields) for (const [key, value] of Object.entries(fields)) entry[key] = serialiseError(value);
    sink(JSON.stringify(entry) + '\n');
  };
  const requestOn = RANK.info >= threshold;
  const request = (f: RequestLogFields) => {
    if (!requestOn) return;
    // Strings go through JSON.stringify (the path comes from the client); numbers are finite by construction.
    sink(
      `{"time":"${now()}","level":"info","msg":"request","method":${JSON.stringify(f.method)},"path":${JSON.stringify(f.path)}` +
        `,"status":${f.status},"durationMs":${f.durationMs},"requestId":${JSON.stringify(f.requestId)}` +
        `${f.aborted ? ',"aborted":true' : ''}}\n`,
    );
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error'), request };
}
