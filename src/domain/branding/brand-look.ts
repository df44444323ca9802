import { findBrandingLook } from '../../db/repositories/branding.js';
import type { Db } from '../../db/handles.js';
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
  const row = await findBrandingLook(db, accountId);
  return { name: row?.sender_name ?? accountName, accent: row?.accent_color ?? null, logoUrl: row ? logoUrl(baseUrl, row) : null };
}
