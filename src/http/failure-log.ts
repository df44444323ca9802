import type { FastifyRequest } from 'fastify';
import type { AppError } from '../domain/errors.js';
import { repeatLimiter } from '../lib/throttled-warning.js';

/**
 * The log line of a request answered 5xx. An internal error is a defect of its own each time: every
 * one is logged with its stack. The others are the state of a part (a busy or unreachable database, a
 * full disk, an unreachable file store) that every request meets while it lasts: the log must not
 * amplify the incident (issue 35 item 6; a full disk once gave 789 error lines in 40 s), so one line
 * per kind every LOG_REPEAT_MS, carrying `suppressed`, the number left out since the last one. The
 * access log still records every request, and /metrics counts them.
 */
export const LOG_REPEAT_MS = 10_000;

const take = repeatLimiter(LOG_REPEAT_MS);

export function logFailure(req: FastifyRequest, err: unknown, app: AppError, message: string): void {
  if (app.status < 500) return;
  if (app.code === 'internal_error') {
    req.log.error({ err }, message);
    return;
  }
  const suppressed = take(`${app.code} ${app.message}`);
  if (suppressed === undefined) return;
  const fields = { err, ...(suppressed > 0 ? { suppressed } : {}) };
  if (app.code === 'service_unavailable') req.log.warn(fields, 'database busy');
  else req.log.error(fields, message);
}
