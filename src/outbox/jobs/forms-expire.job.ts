import { z } from 'zod';
import { defineJob } from '../job.js';

/**
 * The expiry sweep: forms past `expires_at` in `sent`/`viewed` become `expired`. Scheduled (one row,
 * run again a minute after each run); idempotent, so a run repeated after a lost lease does no harm.
 */
export const formsExpire = defineJob({
  name: 'forms.expire',
  version: 1,
  payload: z.object({}).strict(),
  retry: { maxAttempts: 5, baseMs: 5_000, maxMs: 60_000 },
  timeoutMs: 120_000,
  everyMs: 60_000,
});
