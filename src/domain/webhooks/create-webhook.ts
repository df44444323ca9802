import { countWebhooks, insertWebhook } from '../../db/repositories/webhooks.js';
import type { WebhookRow } from '../../db/tables.js';
import type { components } from '../../generated/api.js';
import { isoNow } from '../../lib/clock.js';
import { randomHex } from '../../lib/crypto.js';
import { newId } from '../../lib/ids.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';
import { commit, type PreparedWrite } from '../prepared-write.js';
import { presentWebhookWithSecret, type WebhookWithSecretView } from './present-webhook.js';
import { checkWebhookUrl } from './url-rules.js';

type CreateWebhookInput = components['schemas']['CreateWebhookRequest'];

/** `whsec_` and 32 random bytes in hex: the HMAC key, used as this whole string. */
export function newSigningSecret(): string {
  return `whsec_${randomHex(32)}`;
}

/**
 * Webhooks per account and mode (as Stripe allows): every event fans out to each of them, so an
 * unbounded number would make one form change a flood of outbound requests.
 */
export const MAX_WEBHOOKS = 16;

export async function createWebhook(deps: Pick<DomainDeps, 'transact' | 'clock' | 'webhooks'>, p: Partition, input: CreateWebhookInput): Promise<WebhookWithSecretView> {
  return commit(deps, prepareCreateWebhook(deps, p, input));
}

/** The URL check (it resolves the host) before the write; the write returns the webhook with its secret. */
export async function prepareCreateWebhook(deps: Pick<DomainDeps, 'clock' | 'webhooks'>, p: Partition, input: CreateWebhookInput): Promise<PreparedWrite<WebhookWithSecretView>> {
  const url = await checkWebhookUrl(input.url, deps.webhooks);
  const now = isoNow(deps.clock);
  const row: WebhookRow = {
    id: newId('webhook'),
    account_id: p.accountId,
    mode: p.mode,
    url,
    events: JSON.stringify(input.events),
    status: 'enabled',
    description: input.description ?? null,
    secret: newSigningSecret(),
    previous_secret: null,
    previous_secret_until: null,
    failing_since: null,
    disabled_reason: null,
    created_at: now,
    updated_at: now,
  };
  return async (trx) => {
    // Counted where the insert is (SQLite serialises writers; on PostgreSQL two racing creates at 15
    // could both pass: a bounded overshoot, not a way around the cap).
    if ((await countWebhooks(trx, p)) >= MAX_WEBHOOKS) {
      throw new AppError('parameter_invalid', `An account can have at most ${MAX_WEBHOOKS} webhooks in ${p.mode} mode; delete one (DELETE /api/v1/webhooks/{id}) before adding another.`);
    }
    await insertWebhook(trx, p, row);
    return presentWebhookWithSecret(row);
  };
}
