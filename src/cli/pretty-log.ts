import { Lru } from '../lib/lru.js';

// LOG_FORMAT=pretty (the default on a terminal): the server's JSON log lines turned into one short
// line per request — time, method, route, status, duration, request id — for a person watching.
// (Fastify's own two lines per request are still understood, for logs of older versions.)
// Services keep the JSON lines (LOG_FORMAT=json, the default when stdout is not a terminal).

interface LogLine {
  level?: number;
  time?: number;
  msg?: string;
  request_id?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  // The one access-log line (http/plugins/access-log.ts).
  method?: string;
  route?: string | null;
  path?: string;
  status?: number;
  duration_ms?: number;
  err?: { message?: string; stack?: string };
}

const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

function clock(time: number | undefined): string {
  return new Date(time ?? Date.now()).toTimeString().slice(0, 8);
}

/** A pino destination: takes JSON lines, writes human lines to `out`. */
export function prettyLogStream(out: { write(text: string): unknown }): { write(line: string): void } {
  // Method and path arrive with "incoming request"; status and time with "request completed".
  const started = new Lru<string, string>(10_000);
  return {
    write(line: string) {
      let entry: LogLine;
      try {
        entry = JSON.parse(line) as LogLine;
      } catch {
        out.write(line.endsWith('\n') ? line : `${line}\n`);
        return;
      }
      const text = format(entry, started);
      if (text !== undefined) out.write(`${text}\n`);
    },
  };
}

function millis(ms: number | undefined): string {
  return ms === undefined ? '' : `  ${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
}

function format(entry: LogLine, started: Lru<string, string>): string | undefined {
  const id = entry.request_id;
  if (entry.msg === 'incoming request' && id && entry.req) {
    started.set(id, `${entry.req.method ?? '?'} ${entry.req.url ?? '?'}`);
    return undefined;
  }
  if (entry.msg === 'request completed' && id && entry.method !== undefined) {
    return `${clock(entry.time)}  ${entry.method} ${entry.route ?? entry.path ?? '?'}  ${entry.status ?? '?'}${millis(entry.duration_ms)}  ${id}`;
  }
  if (entry.msg === 'request completed' && id) {
    const request = started.get(id) ?? '(request)';
    started.delete(id);
    return `${clock(entry.time)}  ${request}  ${entry.res?.statusCode ?? '?'}${millis(entry.responseTime)}  ${id}`;
  }
  // The start banner says where the server listens.
  if (entry.msg?.startsWith('Server listening at ')) return undefined;
  const level = LEVELS[entry.level ?? 30] ?? 'info';
  const parts = [`${clock(entry.time)}  ${level === 'info' ? '' : `${level}: `}${entry.msg ?? ''}`];
  if (id) parts[0] += `  ${id}`;
  if (entry.err) parts.push((entry.level ?? 30) >= 50 && entry.err.stack ? entry.err.stack : (entry.err.message ?? ''));
  return parts.filter((p) => p !== '').join('\n  ');
}
