import { z } from 'zod';
import { defineJob } from '../job.js';

/**
 * Deletes the stored files of a deleted form (issue 40): the signature images, the sealed PDF, the
 * cached filled document, a generated form's own PDF. Enqueued in the transaction that empties the
 * form's rows and lists the files in `purge_blobs`; each file's row goes once the file is gone, so a
 * run killed midway (or a file store that was down) is continued by the next attempt.
 */
export const formPurge = defineJob({
  name: 'form.purge',
  version: 1,
  payload: z.object({ form_id: z.string().min(1) }).strict(),
  // A file store that is down is waited for: quickly at first, then for about a day.
  retry: { maxAttempts: 15, baseMs: 2_000, maxMs: 3_600_000 },
  timeoutMs: 120_000,
});
