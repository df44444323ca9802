import type { Deps } from '../../src/deps.js';
import { insertTemplate } from '../../src/db/repositories/templates.js';
import { newId } from '../../src/lib/ids.js';
import type { Partition } from '../../src/lib/partition.js';
import type { FieldDef } from '../../src/pdf/field.js';

/** A template with 20 text fields (reusing an existing template's PDF) for the POST /forms benchmark. */
export async function seedWide(deps: Deps, p: Partition): Promise<string> {
  const source = await deps.database.db.selectFrom('templates').select(['pdf_key', 'pdf_sha256']).where('account_id', '=', p.accountId).executeTakeFirstOrThrow();
  const fields: FieldDef[] = Array.from({ length: 20 }, (_, i) => ({ name: `field_${i}`, type: 'text', required: false, signer: 1, page: 1, x: 50, y: 40 + i * 30, width: 300, height: 20 }));
  const id = newId('template');
  const now = new Date().toISOString();
  await deps.database.transact((trx) => insertTemplate(trx, p, { id, name: 'twenty fields', page_count: 1, fields: JSON.stringify(fields), signer_count: 1, warnings: '[]', ...source, created_at: now, updated_at: now }));
  return id;
}
