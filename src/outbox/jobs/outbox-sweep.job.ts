import { z } from 'zod';
import { defineJob } from '../job.js';

/**
 * Deletes jobs that finished (`done`) more than a week ago, so the queue table stays the size of its
 * recent work. `dead` jobs stay: they wait for an operator (`formsign outbox list --status dead`).
 * Scheduled, hourly; idempotent.
 */
export const outboxSweep = defineJob({
  name: 'outbox.sweep',
  version: 1,
  payload: z.object({}).strict(),
  retry: { maxAttempts: 3, baseMs: 10_000, maxMs: 60_000 },
  timeoutMs: 300_000,
  everyMs: 3_600_000,
});
