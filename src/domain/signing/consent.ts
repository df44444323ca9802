// The consent a signer gives on the signing page before finishing (ESIGN/UETA), recorded with their
// signature as it was worded (recipients.consent_text) so the audit trail can quote what was agreed.
// The page shows the same sentence (http/pages/sign/sign-html.ts; a translation, where the page is
// shown in another language, should be recorded in its place).
export const CONSENT_TEXT = 'I agree to sign this document electronically. My electronic signature has the same legal effect as a handwritten one (U.S. ESIGN Act and UETA), and I may ask the sender for a paper copy.';

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
