import type { RecipientRow } from '../../db/tables.js';

/**
 * The one rule for how a recipient is named wherever a person reads it (the signing page, the audit
 * trail and added signature page of the sealed PDF, the seal's reason): the name given at send, or —
 * a name is optional (CONTRACT.md Part D) — the address the link was sent to, so a reader can still
 * tell recipients apart. The API shows the stored name as it is (`null` when none was given).
 */
export function displayName(r: Pick<RecipientRow, 'name' | 'email' | 'phone' | 'channel'>): string {
  if (r.name !== null && r.name !== '') return r.name;
  return (r.channel === 'sms' ? r.phone : r.email) ?? r.email ?? r.phone ?? '';
}
