import { z } from 'zod';
import { defineJob } from '../job.js';

/** Deletes `Idempotency-Key` records past their 24 hours, so the table holds about a day. Scheduled, hourly. */
export const idempotencySweep = defineJob({
  name: 'idempotency.sweep',
  version: 1,
  payload: z.object({}).strict(),
  retry: { maxAttempts: 3, baseMs: 10_000, maxMs: 60_000 },
  timeoutMs: 300_000,
  everyMs: 3_600_000,
});
