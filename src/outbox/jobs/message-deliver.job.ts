import { z } from 'zod';
import { defineJob } from '../job.js';

/**
 * Sends one composed e-mail or SMS (a `messages` row) through the configured provider. Retried for
 * about two hours (15 s doubling to a 1 h cap, ten attempts): long enough to ride out a mail server's
 * restart or a gateway's outage, short enough that the sender learns of a lasting failure the same day.
 */
export const messageDeliver = defineJob({
  name: 'message.deliver',
  version: 1,
  payload: z.object({ message_id: z.string().min(1) }).strict(),
  retry: { maxAttempts: 10, baseMs: 15_000, maxMs: 3_600_000 },
  // Above nodemailer's own connection, greeting and socket timeouts (providers/email), so those fire first.
  timeoutMs: 120_000,
  // A lost outcome sends the message again, as a retry after a timeout would.
  replayableOutcome: true,
});
