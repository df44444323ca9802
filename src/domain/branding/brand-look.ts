import { findBrandingLook } from '../../db/repositories/branding.js';
import type { Db } from '../../db/handles.js';
import type { AccountBrandingRow } from '../../db/tables.js';
import { logoUrl } from './branding.js';

/** What an account's brand changes where it shows itself (issue 42): the e-mails, the pages, the audit header. */
export interface BrandLook {
  /** Who the account says it is: the brand's sender name, else the account's name. */
  readonly name: string;
  /** `#rrggbb`, at least 4.5:1 on white; null: Formsign's own blue. */
  readonly accent: string | null;
  /** The logo's public address; null: none. */
  readonly logoUrl: string | null;
}

/** The brand as messages and pages apply it; without a brand, the account's name and Formsign's look. */
export async function loadBrandLook(db: Db, baseUrl: string, accountId: string, accountName: string): Promise<BrandLook> {
  return brandLookOf(baseUrl, await findBrandingLook(db, accountId), accountName);
}

/** The brand look of a branding row already read (the seal reads the whole row for its audit header). */
export function brandLookOf(baseUrl: string, row: Pick<AccountBrandingRow, 'sender_name' | 'accent_color' | 'logo_type' | 'logo_sha256'> | undefined, accountName: string): BrandLook {
  return { name: row?.sender_name ?? accountName, accent: row?.accent_color ?? null, logoUrl: row ? logoUrl(baseUrl, row) : null };
}
