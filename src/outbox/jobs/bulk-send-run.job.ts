import { z } from 'zod';
import { defineJob } from '../job.js';

/**
 * Creates and sends the forms of a bulk send's pending rows (issue 42), a batch at a time: each row in
 * transactions of its own that move the row's state (form created, then sent or failed), so a run
 * killed midway leaves every row either untouched, created or settled, and the next run goes on from
 * there. While rows remain, the run's outcome enqueues the next batch: one bulk send holds one worker
 * slot at a time (of the worker's eight), so a 5,000-row send never keeps other accounts' messages
 * waiting behind it.
 */
export const bulkSendRun = defineJob({
  name: 'bulk_send.run',
  version: 1,
  payload: z.object({ bulk_id: z.string().min(1) }).strict(),
  // Failures here are the database's or the file store's (a row's own refusal fails the row, not the
  // job): retried for about an hour, then the rows left are failed and the bulk send completes.
  retry: { maxAttempts: 10, baseMs: 2_000, maxMs: 600_000 },
  timeoutMs: 120_000,
});
