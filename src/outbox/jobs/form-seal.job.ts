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
  // 12 attempts over about a day: the waits double from 1–2 minutes up to 4–8 hours, so the last
  // attempt comes 16–33 hours (24 on average, with the jitter of backoff.ts) after the first. A seal
  // waits on outside services (every TSA, a CA's OCSP responder) whose outages last hours, not
  // minutes: the signers expect their document within the day, not a failure after an hour. A dead
  // job is visible in `formsign outbox list --status dead`; `POST /forms/{id}/reseal` starts it again.
  retry: { maxAttempts: 12, baseMs: 120_000, maxMs: 8 * 3_600_000 },
  timeoutMs: 120_000,
  pdfWork: true,
});
