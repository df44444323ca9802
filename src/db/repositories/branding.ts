import type { Db, Trx } from '../handles.js';
import type { AccountBrandingRow } from '../tables.js';

// An account's brand (0086): one row per account, both modes (the brand is the company's, not a
// partition's data). Every query is scoped by the account.

export function findBranding(db: Db, accountId: string): Promise<AccountBrandingRow | undefined> {
  return db.selectFrom('account_branding').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

/** The brand without its logo's bytes: what messages and pages need on every send and view. */
export function findBrandingLook(db: Db, accountId: string): Promise<Omit<AccountBrandingRow, 'logo'> | undefined> {
  return db
    .selectFrom('account_branding')
    .select(['account_id', 'logo_type', 'logo_sha256', 'accent_color', 'accent_requested', 'sender_name', 'updated_at'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** A logo by its SHA-256 (its public address): the type and bytes as stored. */
export function findLogoBySha256(db: Db, sha256: string): Promise<Pick<AccountBrandingRow, 'logo_type' | 'logo'> | undefined> {
  return db.selectFrom('account_branding').select(['logo_type', 'logo']).where('logo_sha256', '=', sha256).executeTakeFirst();
}

export async function saveBranding(trx: Trx, row: AccountBrandingRow): Promise<void> {
  const { account_id: _id, ...set } = row;
  await trx.insertInto('account_branding').values(row).onConflict((oc) => oc.column('account_id').doUpdateSet(set)).execute();
}
