import type { Db, Trx } from '../handles.js';

// Service-wide secrets are not partitioned: they belong to the installation, not to an account.

/** The secret named `name`, made by `make` the first time; every instance gets the same value. */
export async function ensureServiceSecret(trx: Trx, name: string, make: () => string, now: string): Promise<string> {
  // Read first: a later start writes nothing (it starts on a full disk, and sooner).
  const found = await findServiceSecret(trx, name);
  if (found !== undefined) return found;
  await trx.insertInto('service_secrets').values({ name, value: make(), created_at: now }).onConflict((oc) => oc.column('name').doNothing()).execute();
  return (await findServiceSecret(trx, name))!;
}

export async function findServiceSecret(db: Db, name: string): Promise<string | undefined> {
  return (await db.selectFrom('service_secrets').select('value').where('name', '=', name).executeTakeFirst())?.value;
}
