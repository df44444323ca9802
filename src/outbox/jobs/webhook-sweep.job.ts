import { z } from 'zod';
import { defineJob } from '../job.js';

/** Deletes delivery records older than 30 days, so the table stays bounded. Scheduled, hourly. */
export const webhookSweep = defineJob({
  name: 'webhook.sweep',
  version: 1,
  payload: z.object({}).strict(),
  retry: { maxAttempts: 3, baseMs: 10_000, maxMs: 60_000 },
  timeoutMs: 300_000,
  everyMs: 3_600_000,
});
