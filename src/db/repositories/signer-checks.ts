import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import type { CheckLogKind, CheckPurpose, RecipientCheckLogRow, RecipientCheckRow, RecipientChecksTable } from '../tables.js';
import type { Insertable } from 'kysely';

// A recipient's check (migration 0030): what was asked, the current code, wrong tries and the lock.
// Every change of the counters is one conditional UPDATE, so concurrent servers count each try once.

export async function insertRecipientCheck(trx: Trx, row: Insertable<RecipientChecksTable>): Promise<void> {
  await trx.insertInto('recipient_checks').values(row).execute();
}

export function findRecipientCheck(db: Db, p: Partition, recipientId: string): Promise<RecipientCheckRow | undefined> {
  return db.selectFrom('recipient_checks').selectAll().where('recipient_id', '=', recipientId).where('account_id', '=', p.accountId).where('mode', '=', p.mode).executeTakeFirst();
}

export function listRecipientChecksOfForm(db: Db, p: Partition, formId: string): Promise<RecipientCheckRow[]> {
  return db.selectFrom('recipient_checks').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId).execute();
}

/** Stores a new one-time code (replacing any earlier one, which stops working). */
export async function storeCheckCode(trx: Trx, p: Partition, recipientId: string, c: { hash: string; purpose: CheckPurpose; expiresAt: string; now: string }): Promise<void> {
  await trx.updateTable('recipient_checks').set({ code_hash: c.hash, code_purpose: c.purpose, code_expires_at: c.expiresAt, updated_at: c.now })
    .where('recipient_id', '=', recipientId).where('account_id', '=', p.accountId).where('mode', '=', p.mode).execute();
}

/**
 * Uses the current code: clears it only if it is still the one compared (a second request with the same
 * code finds it gone). Clears the wrong tries too. Whether this call used it.
 */
export async function consumeCheckCode(trx: Trx, p: Partition, recipientId: string, hash: string | null, now: string): Promise<boolean> {
  let q = trx.updateTable('recipient_checks').set({ code_hash: null, code_purpose: null, code_expires_at: null, failures: 0, updated_at: now })
    .where('recipient_id', '=', recipientId).where('account_id', '=', p.accountId).where('mode', '=', p.mode);
  if (hash !== null) q = q.where('code_hash', '=', hash);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** One more wrong try; returns the count after it (the row is locked by the update until the commit). */
export async function countCheckFailure(trx: Trx, p: Partition, recipientId: string, now: string): Promise<number> {
  await trx.updateTable('recipient_checks').set((eb) => ({ failures: eb('failures', '+', 1), updated_at: now }))
    .where('recipient_id', '=', recipientId).where('account_id', '=', p.accountId).where('mode', '=', p.mode).execute();
  const row = await trx.selectFrom('recipient_checks').select('failures').where('recipient_id', '=', recipientId).executeTakeFirstOrThrow();
  return Number(row.failures);
}

/** Locks the link until `until`: the tries start again from zero then, and the current code is void. */
export async function lockRecipientCheck(trx: Trx, p: Partition, recipientId: string, until: string, now: string): Promise<void> {
  await trx.updateTable('recipient_checks').set({ locked_until: until, failures: 0, code_hash: null, code_purpose: null, code_expires_at: null, updated_at: now })
    .where('recipient_id', '=', recipientId).where('account_id', '=', p.accountId).where('mode', '=', p.mode).execute();
}

export async function logCheck(
  trx: Trx,
  p: Partition,
  e: { id: string; formId: string; recipientId: string; kind: CheckLogKind; purpose: CheckPurpose; method: RecipientCheckRow['method']; destination: string | null; ip: string | null; at: string },
): Promise<void> {
  await trx.insertInto('recipient_check_log').values({
    id: e.id, account_id: p.accountId, mode: p.mode, form_id: e.formId, recipient_id: e.recipientId, kind: e.kind, purpose: e.purpose, method: e.method, destination: e.destination, ip: e.ip, at: e.at,
  }).execute();
}

/** When the codes sent to a recipient since `since` went out, and for which check, newest first (the resend limits). */
export async function codesSentSince(db: Db, p: Partition, recipientId: string, since: string): Promise<Array<{ at: string; purpose: CheckPurpose }>> {
  return db.selectFrom('recipient_check_log').select(['at', 'purpose']).where('recipient_id', '=', recipientId).where('account_id', '=', p.accountId).where('mode', '=', p.mode)
    .where('kind', '=', 'code_sent').where('at', '>', since).orderBy('at', 'desc').execute();
}

export function listCheckLogOfForm(db: Db, p: Partition, formId: string): Promise<RecipientCheckLogRow[]> {
  return db.selectFrom('recipient_check_log').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId).orderBy('at').orderBy('id').execute();
}

/** When the wrong codes from one client address on an account's links since `since` were given, oldest first (the per-address limit). */
export async function failuresFromIpSince(db: Db, p: Partition, ip: string, since: string): Promise<string[]> {
  const rows = await db.selectFrom('recipient_check_log').select('at').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('ip', '=', ip)
    .where('kind', '=', 'failed').where('at', '>', since).orderBy('at').execute();
  return rows.map((r) => r.at);
}

/** The recipient's check removed (the sender's correction said `auth: null`, or gives a new one). */
export async function removeRecipientCheck(trx: Trx, p: Partition, recipientId: string): Promise<void> {
  await trx.deleteFrom('recipient_checks').where('recipient_id', '=', recipientId).where('account_id', '=', p.accountId).where('mode', '=', p.mode).execute();
}

/** The check kept for a new person (issue 38 item 5): no live code, no wrong tries, no lock; its SMS number as given. */
export async function resetRecipientCheck(trx: Trx, p: Partition, recipientId: string, phone: string | null, now: string): Promise<void> {
  await trx.updateTable('recipient_checks').set({ phone, code_hash: null, code_purpose: null, code_expires_at: null, failures: 0, locked_until: null, updated_at: now })
    .where('recipient_id', '=', recipientId).where('account_id', '=', p.accountId).where('mode', '=', p.mode).execute();
}
