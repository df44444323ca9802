import { findAccount } from '../../db/repositories/accounts.js';
import type { RecipientRow } from '../../db/tables.js';
import { pickLocale, supportedLocale, t, type Locale } from '../../lib/i18n/index.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';

// The consent a signer gives on the signing page before finishing (ESIGN/UETA), recorded with their
// signature as it was worded and in the language it was shown (signing_evidence.consent_text and
// consent_locale), so the audit trail quotes what the signer read. The page shows `sign.consent` of
// the signer's catalogue (http/pages/sign/sign-html.ts).

/** The consent in English, the wording recorded for every signature before migration 0023. */
export const CONSENT_TEXT = t('en', 'sign.consent');

export interface ShownConsent { text: string; locale: Locale }

/**
 * The consent as the signer's page showed it. The page says its language (`locale`, the one it was
 * drawn in); a client posting without one gets the language the page would have chosen for this
 * request (`choices`: the language picked in the menu, then the browser's Accept-Language), between
 * them the recipient's locale, and last the account's default. A `locale` given that names no
 * catalogue is refused: the record must not guess what was read.
 */
export async function shownConsent(
  deps: Pick<DomainDeps, 'db'>, p: Partition, recipient: Pick<RecipientRow, 'locale'>,
  given: unknown, choices: { picked: string | null; accepted: readonly string[] },
): Promise<ShownConsent> {
  if (given !== undefined && given !== null) {
    const locale = typeof given === 'string' ? supportedLocale(given) : null;
    if (locale === null) throw new AppError('parameter_invalid', 'locale must name the language the page was shown in, such as "de".', 'locale');
    return { text: t(locale, 'sign.consent'), locale };
  }
  const account = await findAccount(deps.db, p.accountId);
  const locale = pickLocale([choices.picked, recipient.locale, ...choices.accepted, account?.locale]);
  return { text: t(locale, 'sign.consent'), locale };
}

/** The UTC offset a browser reports, in minutes east of UTC: −12:00 to +14:00, whole minutes. */
export function parseUtcOffset(raw: unknown): number | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < -720 || raw > 840) return null;
  return raw;
}

/** "UTC+05:30", "UTC-03:00", "UTC" for an offset in minutes east of UTC. */
export function formatUtcOffset(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const abs = Math.abs(minutes);
  return `UTC${minutes > 0 ? '+' : '-'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
