import { findWebhook, updateWebhook } from '../../db/repositories/webhooks.js';
import { isoNow } from '../../lib/clock.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { notFound } from '../errors.js';
import { commit, type PreparedWrite } from '../prepared-write.js';
import { newSigningSecret } from './create-webhook.js';
import { presentWebhookWithSecret, type WebhookWithSecretView } from './present-webhook.js';

/** How long deliveries are signed with the replaced secret too, so receivers can switch without a gap. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

export async function rotateWebhookSecret(deps: Pick<DomainDeps, 'transact' | 'clock'>, p: Partition, id: string): Promise<WebhookWithSecretView> {
  return commit(deps, prepareRotateWebhookSecret(deps, p, id));
}

export async function prepareRotateWebhookSecret(deps: Pick<DomainDeps, 'clock'>, p: Partition, id: string): Promise<PreparedWrite<WebhookWithSecretView>> {
  const now = deps.clock.now();
  return async (trx) => {
    const current = await findWebhook(trx, p, id);
    if (!current) throw notFound('webhook', id);
    const row = await updateWebhook(trx, p, id, {
      secret: newSigningSecret(),
      previous_secret: current.secret,
      previous_secret_until: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
      updated_at: isoNow(deps.clock),
    });
    if (!row) throw notFound('webhook', id);
    return presentWebhookWithSecret(row);
  };
}
