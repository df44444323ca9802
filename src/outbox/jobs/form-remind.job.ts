import { z } from 'zod';
import { defineJob } from '../job.js';

/**
 * One scheduled reminder: reminder number `seq` of one recipient, due at the job's run_at. Enqueued in
 * the transaction that messages the recipient (one row per reminder promised), and checked again
 * against the form and the recipient in the transaction that records it: nothing is sent once the
 * form is signed, declined, voided or expired, or the recipient has signed or declined. The reminder's
 * number is unique per recipient (the `reminders` table), so a promise is kept once, whatever the
 * number of workers.
 */
export const formRemind = defineJob({
  name: 'form.remind',
  version: 1,
  payload: z.object({ form_id: z.string().min(1), recipient_id: z.string().min(1), seq: z.number().int().min(1) }).strict(),
  retry: { maxAttempts: 8, baseMs: 10_000, maxMs: 3_600_000 },
  timeoutMs: 60_000,
});
