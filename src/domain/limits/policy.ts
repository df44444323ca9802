
// The contract's limits (Part B, "Rate-limit headers"): one sliding window of 60 s per account and
// endpoint (method + route template), and a quota of calls per account per UTC calendar month.

export const WINDOW_SECONDS = 60;
export const WINDOW_MS = WINDOW_SECONDS * 1000;

const READS = 300;
const CREATE_FORM = 120;
const SEND = 60;
const GENERATE = 20;
const WEBHOOK_WRITES = 30;
/** Writes the contract does not name (template upload, edit, delete): as dear as a send. */
const OTHER_WRITES = 60;

/**
 * Requests per window from one client address that reach no account (a missing, invalid or revoked
 * key, a live key without a plan, a route or method that does not exist). Generous for a person or a
 * misconfigured client, a wall for guessing keys (a 128-bit key is not found by 600 tries a minute).
 */
export const ADDRESS_WINDOW = 600;

/** The endpoint a window counts: HEAD is the GET it mirrors. */
export function endpointKey(method: string, route: string): string {
  return `${method === 'HEAD' ? 'GET' : method} ${route}`;
}

/** Requests per window for an endpoint; an account's `per_minute_limit` replaces it for every endpoint. */
export function defaultPerWindow(method: string, route: string): number {
  if (method === 'GET' || method === 'HEAD') return READS;
  if (route === '/api/v1/forms' && method === 'POST') return CREATE_FORM;
  if (route === '/api/v1/forms/:form_id/send') return SEND;
  if (route === '/api/v1/forms/generate') return GENERATE;
  if (route.startsWith('/api/v1/webhooks')) return WEBHOOK_WRITES;
  return OTHER_WRITES;
}

/**
 * Calls the monthly quota does not count: the contract's two documents, and a webhook's test event
 * (issue 24: trying a receiver should not cost the month's calls; its window still applies).
 */
const UNCOUNTED = new Set(['GET /api/v1/openapi.yaml', 'GET /api/v1/sdk/typescript', 'POST /api/v1/webhooks/:webhook_id/test']);

export function countsTowardQuota(endpoint: string): boolean {
  return !UNCOUNTED.has(endpoint);
}


/** A UTC calendar month: its 'YYYY-MM' and its bounds. */
export interface MonthSpan {
  readonly month: string;
  readonly startMs: number;
  /** Start of the next month, in ms; `resetS` in Unix seconds. */
  readonly endMs: number;
  readonly resetS: number;
}

// Every request asks for its month: the last answer is kept and reused while `ms` stays inside it,
// which saves two Date objects and an ISO string per request. Any `ms` (an injected clock going back,
// or forward by months) outside the kept span computes its own.
let lastSpan: MonthSpan = spanOf(0);

function spanOf(ms: number): MonthSpan {
  const d = new Date(ms);
  const startMs = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const endMs = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return { month: d.toISOString().slice(0, 7), startMs, endMs, resetS: endMs / 1000 };
}

/** The UTC calendar month of `ms`. */
export function monthSpan(ms: number): MonthSpan {
  if (ms >= lastSpan.startMs && ms < lastSpan.endMs) return lastSpan;
  const span = spanOf(ms);
  lastSpan = span;
  return span;
}

/** 'YYYY-MM' of the UTC calendar month of `ms`. */
export function monthOf(ms: number): string {
  return monthSpan(ms).month;
}

// Dashboard (issue 24): the usage chart counts per UTC day. Like monthSpan, the last day is kept.
let lastDay = { startMs: 0, endMs: 0, day: '' };

/** 'YYYY-MM-DD' of the UTC day of `ms`. */
export function dayOf(ms: number): string {
  if (ms >= lastDay.startMs && ms < lastDay.endMs) return lastDay.day;
  const startMs = Math.floor(ms / 86_400_000) * 86_400_000;
  lastDay = { startMs, endMs: startMs + 86_400_000, day: new Date(startMs).toISOString().slice(0, 10) };
  return lastDay.day;
}
