import { z } from 'zod';
import { defineJob } from '../job.js';

/**
 * Seals a form whose recipients have all signed: renders the filled document, draws the signatures
 * (signing-record.ts says where they are), appends the audit trail, signs it (PAdES), stores it, and
 * only then marks the form `signed` with `form.signed`, in one transaction. Enqueued once, by the
 * last signature, in that signature's transaction. Safe to run again: a form already signed is done.
 */
export const formSeal = defineJob({
  name: 'form.seal',
  version: 1,
  payload: z.object({ form_id: z.string().min(1) }).strict(),
  // Sealing is CPU work in the PDF pool; a failure (a full queue, a restart) is retried quickly at
  // first, then for about a day, and a dead job is visible in `formsign outbox list --status dead`.
  retry: { maxAttempts: 12, baseMs: 2_000, maxMs: 3_600_000 },
  timeoutMs: 120_000,
});
