import { insertTemplate } from '../../src/db/repositories/templates.js';
import { newId } from '../../src/lib/ids.js';
import type { Partition } from '../../src/lib/partition.js';
import type { FieldDef } from '../../src/pdf/field.js';
import type { Harness } from '../harness.js';

export const SEED_FIELDS: FieldDef[] = [
  { name: 'full_name', type: 'text', required: true, signer: 1, page: 1, x: 72, y: 100, width: 200, height: 20 },
  { name: 'email', type: 'email', required: false, signer: 1, page: 1, x: 72, y: 130, width: 200, height: 20 },
];

/** A template row for read-path tests, written with an explicit timestamp to control list order. */
export async function seedTemplate(h: Harness, p: Partition, name: string, createdAt: string, fields: FieldDef[] = SEED_FIELDS): Promise<string> {
  const id = newId('template');
  await h.deps.database.transact((trx) => insertTemplate(trx, p, {
    id,
    name,
    page_count: 1,
    fields: JSON.stringify(fields),
    signer_count: 1,
    warnings: '[]',
    pdf_key: `${p.accountId}/${p.mode}/templates/${id}.pdf`,
    pdf_sha256: '0'.repeat(64),
    created_at: createdAt,
    updated_at: createdAt,
  }));
  return id;
}
