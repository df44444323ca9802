import { findAccount } from '../../db/repositories/accounts.js';
import type { Mode } from '../../lib/partition.js';
import { recordActivity, type Actor } from '../activity/record-activity.js';
import type { DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import { createApiKey, listKeys, revokeKey, type AlsoWrite, type ApiKeyView } from '../keys/manage-keys.js';
import { assertModeAllowed } from '../plans/plan-rules.js';

// The developers area's key management: the operator's key functions, held to the signed-in account
// (an operator may touch any key; a dashboard user only their account's).

const LABEL_MAX = 100;

/** A key's activity entry, written in the key's own transaction (dashboard and operator alike). */
export function keyActivity(deps: Pick<DomainDeps, 'clock'>, actor: Actor, kind: 'key.created' | 'key.revoked'): AlsoWrite {
  return (trx, key) => recordActivity(trx, deps, { accountId: key.account_id, actor, kind, target: key.display, detail: { mode: key.mode, label: key.label } });
}

export async function createAccountKey(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>, accountId: string, actor: Actor, input: { label?: unknown; mode?: unknown }): Promise<ApiKeyView & { key: string }> {
  if (input.mode !== 'test' && input.mode !== 'live') throw new AppError('parameter_invalid', 'mode must be test or live.', 'mode');
  const mode: Mode = input.mode;
  let label: string | undefined;
  if (input.label !== undefined && input.label !== null) {
    if (typeof input.label !== 'string' || [...input.label.trim()].length > LABEL_MAX) throw new AppError('parameter_invalid', `A label is text of at most ${LABEL_MAX} characters.`, 'label');
    label = input.label.trim() || undefined;
  }
  if (mode === 'live') assertModeAllowed((await findAccount(deps.db, accountId))?.plan, mode, 'mode');
  return createApiKey(deps, { accountId, mode, label, createdBy: actor.email }, keyActivity(deps, actor, 'key.created'));
}

export async function listAccountKeys(deps: Pick<DomainDeps, 'db'>, accountId: string): Promise<ApiKeyView[]> {
  return listKeys(deps, accountId);
}

/** Revokes a key of this account; another account's key id is "not found", as in the API. */
export async function revokeAccountKey(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>, accountId: string, actor: Actor, keyId: string): Promise<ApiKeyView> {
  const keys = await listKeys(deps, accountId);
  if (!keys.some((k) => k.id === keyId)) throw notFound('API key', keyId);
  return revokeKey(deps, keyId, keyActivity(deps, actor, 'key.revoked'));
}
