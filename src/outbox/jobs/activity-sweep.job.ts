import { z } from 'zod';
import { defineJob } from '../job.js';

/** Deletes account activity entries older than a year (issue 39). Scheduled, daily. */
export const activitySweep = defineJob({
  name: 'activity.sweep',
  version: 1,
  payload: z.object({}).strict(),
  retry: { maxAttempts: 3, baseMs: 60_000, maxMs: 3_600_000 },
  timeoutMs: 300_000,
  everyMs: 86_400_000,
});
