import { z } from 'zod';
import { defineJob } from '../job.js';

/**
 * The retention sweep (issue 40): finished forms past their account's `retention_days`, not on legal
 * hold, are purged. Scheduled once a day (one row, so one worker at a time runs it); a run killed
 * midway is run again when its lease runs out and continues with the forms still due.
 */
export const formsRetention = defineJob({
  name: 'forms.retention',
  version: 1,
  payload: z.object({}).strict(),
  retry: { maxAttempts: 5, baseMs: 60_000, maxMs: 3_600_000 },
  timeoutMs: 600_000,
  everyMs: 86_400_000,
});
