import { findAccount } from '../../db/repositories/accounts.js';
import { findApiKey, insertApiKey, listApiKeys, revokeApiKey } from '../../db/repositories/api-keys.js';
import type { Trx } from '../../db/handles.js';
import type { ApiKeyRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import { randomHex, sha256Hex } from '../../lib/crypto.js';
import { newId } from '../../lib/ids.js';
import type { Mode } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { notFound } from '../errors.js';

export interface ApiKeyView {
  object: 'api_key';
  id: string;
  account_id: string;
  mode: Mode;
  label: string | null;
  /** What a person sees in lists: `fk_test_…a1b2`. */
  display: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** The address of the member who made it; null: an operator's key (issue 39). */
  created_by: string | null;
}

export function presentKey(k: ApiKeyRow): ApiKeyView {
  return { object: 'api_key', id: k.id, account_id: k.account_id, mode: k.mode, label: k.label, display: `${k.prefix}…${k.last4}`, created_at: k.created_at, last_used_at: k.last_used_at, revoked_at: k.revoked_at, created_by: k.created_by ?? null };
}

/** More to write in a key's own transaction (the activity log's entry for it). */
export type AlsoWrite = (trx: Trx, key: ApiKeyView) => Promise<void>;

/** Creates a key; the secret is returned this once and only its SHA-256 is stored. */
export async function createApiKey(
  deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>,
  input: { accountId: string; mode: Mode; label?: string | undefined; createdBy?: string | null },
  also?: AlsoWrite,
): Promise<ApiKeyView & { key: string }> {
  if (!(await findAccount(deps.db, input.accountId))) throw notFound('account', input.accountId, 'account');
  const key = `fk_${input.mode}_${randomHex(16)}`;
  const row: ApiKeyRow = {
    id: newId('apiKey'),
    account_id: input.accountId,
    mode: input.mode,
    label: input.label ?? null,
    prefix: `fk_${input.mode}_`,
    last4: key.slice(-4),
    key_hash: sha256Hex(key),
    created_at: isoNow(deps.clock),
    last_used_at: null,
    revoked_at: null,
    created_by: input.createdBy ?? null,
  };
  await deps.transact(async (trx) => {
    await insertApiKey(trx, row);
    await also?.(trx, presentKey(row));
  });
  return { ...presentKey(row), key };
}

export async function listKeys(deps: Pick<DomainDeps, 'db'>, accountId: string): Promise<ApiKeyView[]> {
  if (!(await findAccount(deps.db, accountId))) throw notFound('account', accountId, 'account');
  return (await listApiKeys(deps.db, accountId)).map(presentKey);
}

export async function revokeKey(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>, keyId: string, also?: AlsoWrite): Promise<ApiKeyView> {
  const existing = await findApiKey(deps.db, keyId);
  if (!existing) throw notFound('API key', keyId);
  await deps.transact(async (trx) => {
    // Only the revocation that ends the key is logged; revoking a revoked key changes nothing.
    if ((await revokeApiKey(trx, keyId, isoNow(deps.clock))) && also) await also(trx, presentKey(existing));
  });
  return presentKey((await findApiKey(deps.db, keyId))!);
}
