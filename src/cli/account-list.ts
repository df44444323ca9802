import type { Db } from '../db/handles.js';
import { presentAccount, type AccountView } from '../domain/accounts/manage-accounts.js';

// Operator reads across every account (`accounts list`, the start banner). Accounts are the root of
// the partitions, so unlike every other read this one is not scoped to one; it is an operator's
// view and never reachable through the API.

/** Oldest first (the demo account a first start creates comes first); `limit` caps what is read. */
export async function listAccounts(db: Db, opts: { limit?: number } = {}): Promise<AccountView[]> {
  let q = db.selectFrom('accounts').selectAll().orderBy('created_at').orderBy('id');
  if (opts.limit !== undefined) q = q.limit(opts.limit);
  return (await q.execute()).map(presentAccount);
}
