import { z } from 'zod';
import { defineJob } from '../job.js';

/**
 * One attempt of one webhook delivery. The webhook schedule (domain/webhooks/retry-schedule.ts) is not
 * the dispatcher's backoff: a failed attempt is recorded as this job's success and the next attempt is
 * a new job due at the scheduled time. The dispatcher's retries only cover the worker's own failures
 * (the database unreachable while recording), so they are few and quick. `attempt` fences the job: it
 * runs only while the delivery has made exactly `attempt - 1` attempts. `deferrals` counts how often it
 * waited for the endpoint's concurrency cap (each wait longer than the last).
 */
export const webhookDeliver = defineJob({
  name: 'webhook.deliver',
  version: 1,
  payload: z.object({ delivery_id: z.string().min(1), attempt: z.number().int().min(1), deferrals: z.number().int().min(0).optional() }).strict(),
  retry: { maxAttempts: 8, baseMs: 1_000, maxMs: 60_000 },
  // Above the 15 s the HTTP exchange may take, so the request's own timeout fires first.
  timeoutMs: 30_000,
  // A lost outcome sends the attempt again: receivers dedupe by Service-Event-Id.
  replayableOutcome: true,
});
