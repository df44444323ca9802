import { purgeMessageBodiesBefore } from '../../db/repositories/messages.js';
import type { DomainDeps } from '../context.js';

/**
 * A message's body (the e-mail's text and HTML, the SMS text) carries the signing link in full. It is
 * kept while it may be delivered and for 30 days after, as delivery records are, then emptied; the
 * record of the message (to, when, transport, outcome) stays.
 */
export const MESSAGE_BODY_RETENTION_MS = 30 * 24 * 3600 * 1000;

/** Empties the bodies of messages delivered more than 30 days ago, in batches; returns how many. */
export async function purgeMessageBodies(deps: Pick<DomainDeps, 'transact' | 'clock'>, batchSize = 1000): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - MESSAGE_BODY_RETENTION_MS).toISOString();
  let total = 0;
  for (;;) {
    const n = await deps.transact((trx) => purgeMessageBodiesBefore(trx, before, batchSize));
    total += n;
    if (n < batchSize) return total;
  }
}
