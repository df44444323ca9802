import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Limits, LimitVerdict } from '../../domain/limits/limits.js';
import { sessionOf } from './guard.js';

/**
 * The API's per-minute window and monthly quota for a dashboard call, keyed by the session's account
 * and counted as the API endpoint it mirrors (`apiRoute`), so a template upload costs the same from
 * the dashboard as from a key, and the two share one window. Runs after the session guard.
 */
export function dashboardLimitHook(limits: Limits | undefined, method: string, apiRoute: string, onLimited?: (reason: NonNullable<LimitVerdict['reason']>) => void) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (!limits) return;
    const verdict = await limits.check(sessionOf(req).accountId, method, apiRoute);
    for (const name in verdict.headers) reply.header(name, verdict.headers[name]);
    if (verdict.refusal) {
      onLimited?.(verdict.reason!);
      throw verdict.refusal;
    }
  };
}
