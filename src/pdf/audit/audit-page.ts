// The audit-trail page(s) appended to a sealed document: what was signed (form, document id, the
// SHA-256 of the original template and of the filled document before sealing), by whom, and each
// recipient's trail (sent, viewed, signed: time, IP address, user agent), with the signature they
// made, the consent they agreed to, how they were reached and their time zone; who sent the form and
// when it was completed.
import type { PDFDocument } from '@cantoo/pdf-lib';
import type { DocumentFonts } from '../fill/index.js';
import { fitCentred } from './fit.js';
import { COLOURS, PageWriter } from './page-writer.js';

export interface AuditRecipient {
  name: string;
  email: string | null;
  phone: string | null;
  channel: 'email' | 'sms';
  signer: number;
  sentAt: string;
  viewedAt: string | null;
  signedAt: string | null;
  viewedIp: string | null;
  viewedUserAgent: string | null;
  signedIp: string | null;
  signedUserAgent: string | null;
  /** When each reminder was sent (issue #23), oldest first; absent or empty when none. */
  remindedAt?: readonly string[];
  /** The signature and initials images the signer made, as drawn or typed. */
  marks?: ReadonlyArray<{ kind: 'signature' | 'initials'; method: 'drawn' | 'typed'; png: Uint8Array }>;
  /** The consent text agreed to before signing, as it was shown (agreed at `signedAt`). */
  consentText?: string | null;
  /** How the signer was reached and identified, e.g. "Signing link sent to ada@example.com". */
  authentication?: string;
  /** The signer's UTC offset as their browser reported it at signing, e.g. "UTC+01:00". */
  utcOffset?: string | null;
}

export interface AuditTrail {
  formId: string;
  formName: string | null;
  documentId: string;
  /** SHA-256 (hex) of the template file as uploaded; null for templates made without one. */
  templateSha256: string | null;
  /** SHA-256 (hex) of the filled document before sealing (the bytes sealing starts from). */
  filledSha256: string;
  recipients: readonly AuditRecipient[];
  /** The account that sent the form. */
  sentBy?: string | null;
  /** When the form reached its end (every recipient signed, or declined, or voided). */
  completedAt?: string | null;
  /** How it ended: `signed`, or a terminal status such as `declined` or `voided`. */
  outcome?: string;
  /** The audit trail alone (GET …/audit-trail): the SHA-256 of the sealed file it belongs to, if sealed. */
  sealedFileSha256?: string | null;
}

export interface SealFacts {
  signingTime: Date;
  /** The certificate the document is sealed with. */
  sealedBy: string;
}

/** "2026-11-24 09:30:05 UTC" from an ISO timestamp; anything unparseable as given. */
export function formatTime(value: string | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

const LABEL_WIDTH = 150;

export function header(w: PageWriter, title: string, subtitle: string): void {
  const top = w.size[1];
  w.page.drawRectangle({ x: 0, y: top - 78, width: w.width, height: 78, color: COLOURS.accent });
  w.label(title, w.margin, top - 44, 20, 'bold', COLOURS.white);
  w.label(subtitle, w.margin, top - 62, 9, 'regular', COLOURS.rule);
  w.y = top - 78 - 32;
}

async function section(w: PageWriter, title: string): Promise<void> {
  w.need(40);
  await w.text(title.toUpperCase(), w.margin, 9, 'bold', COLOURS.accent);
  w.y -= 7;
  w.rule();
  w.y -= 16;
}

/** A label in the left column and a wrapped value beside it. */
async function row(w: PageWriter, label: string, value: string, style: 'value' | 'mono' | 'regular' = 'value', size = 10): Promise<void> {
  const b = await w.block(value, w.contentWidth - LABEL_WIDTH, size, style);
  w.need(w.blockHeight(b));
  await w.text(label, w.margin, 8.5, 'regular', COLOURS.muted);
  w.draw(b, w.margin + LABEL_WIDTH);
  w.y -= Math.max(w.blockHeight(b), 13) + 4;
}

const EVENT_COLUMNS = [{ title: 'Event', width: 52 }, { title: 'Time', width: 122 }, { title: 'IP address', width: 92 }, { title: 'User agent', width: 0 }] as const;

async function eventTable(w: PageWriter, r: AuditRecipient): Promise<void> {
  const widths = EVENT_COLUMNS.map((c) => c.width || w.contentWidth - 12 - EVENT_COLUMNS.reduce((n, x) => n + x.width, 0));
  const xs = widths.map((_, i) => w.margin + 12 + widths.slice(0, i).reduce((n, x) => n + x, 0));
  w.need(14);
  for (const [i, c] of EVENT_COLUMNS.entries()) await w.text(c.title, xs[i]!, 7.5, 'bold', COLOURS.muted);
  w.y -= 12;
  const events: Array<[string, string | null, string | null, string | null]> = [
    ['Sent', r.sentAt, null, null],
    // Reminders were sent after the invite, whether or not the recipient had opened it.
    ...(r.remindedAt ?? []).map((at): [string, string | null, string | null, string | null] => ['Reminded', at, null, null]),
    ['Viewed', r.viewedAt, r.viewedIp, r.viewedUserAgent],
    ['Signed', r.signedAt, r.signedIp, r.signedUserAgent],
  ];
  for (const [event, at, ip, agent] of events) {
    const cells = await Promise.all([
      w.block(event, widths[0]!, 9, 'regular'),
      w.block(at ? formatTime(at) : '—', widths[1]!, 9, 'regular'),
      w.block(ip ?? (at && event !== 'Sent' && event !== 'Reminded' ? 'not recorded' : ''), widths[2]!, 9, 'value'),
      w.block(agent ?? '', widths[3]!, 7.5, 'value', 9.5),
    ]);
    const height = Math.max(...cells.map((c) => w.blockHeight(c)));
    w.need(height + 4);
    w.rule(w.y + 9, COLOURS.band, w.margin + 12);
    cells.forEach((c, i) => w.draw(c, xs[i]!, i === 0 ? COLOURS.muted : COLOURS.ink));
    w.y -= height + 4;
  }
}

async function recipient(w: PageWriter, r: AuditRecipient, index: number): Promise<void> {
  w.need(120);
  // A band with the recipient's name and role.
  w.page.drawRectangle({ x: w.margin, y: w.y - 7, width: w.contentWidth, height: 22, color: COLOURS.band });
  const number = `${index}.`;
  w.label(number, w.margin + 8, w.y, 10.5, 'bold', COLOURS.accent);
  await w.text(r.name || '(no name given)', w.margin + 14 + Math.max(12, w.widthOf(number, 10.5, 'bold')), 10.5, 'value');
  const role = `Signer ${r.signer}  ·  ${r.channel === 'sms' ? 'SMS' : 'Email'}`;
  await w.text(role, w.width - w.margin - 8 - w.widthOf(role, 8.5, 'regular'), 8.5, 'regular', COLOURS.muted);
  w.y -= 28;
  const address = r.channel === 'sms' ? r.phone : r.email;
  const other = r.channel === 'sms' ? r.email : r.phone;
  await row(w, r.channel === 'sms' ? 'Phone (delivered to)' : 'Email (delivered to)', address ?? '—');
  if (other) await row(w, r.channel === 'sms' ? 'Email' : 'Phone', other);
  if (r.authentication) await row(w, 'Authentication', r.authentication, 'regular');
  if (r.signedAt) await row(w, 'Time zone at signing', r.utcOffset ?? 'not reported by the browser', 'regular');
  if (r.consentText) await row(w, 'Consent agreed', `"${r.consentText}"\nAgreed ${formatTime(r.signedAt ?? '')}`, 'regular', 8.5);
  for (const mark of r.marks ?? []) await markRow(w, mark);
  w.y -= 2;
  await eventTable(w, r);
  w.y -= 14;
}

const MARK_BOX = { width: 190, height: 56 };

/** A signature or initials image in a framed box beside its label. */
async function markRow(w: PageWriter, mark: NonNullable<AuditRecipient['marks']>[number]): Promise<void> {
  w.need(MARK_BOX.height + 8);
  await w.text(`${mark.kind === 'initials' ? 'Initials' : 'Signature'} (${mark.method})`, w.margin, 8.5, 'regular', COLOURS.muted);
  const image = await w.page.doc.embedPng(mark.png);
  const x = w.margin + LABEL_WIDTH;
  const top = w.y + 9;
  w.page.drawRectangle({ x, y: top - MARK_BOX.height, width: MARK_BOX.width, height: MARK_BOX.height, borderColor: COLOURS.rule, borderWidth: 0.6 });
  const fit = fitCentred(image, { x, y: top - MARK_BOX.height, ...MARK_BOX }, 4);
  w.page.drawImage(image, fit);
  w.y -= MARK_BOX.height + 6;
}

/** The line that says how and when the form ended. */
async function completed(w: PageWriter, audit: AuditTrail, facts: SealFacts): Promise<void> {
  const outcome = audit.outcome ?? 'signed';
  const when = audit.completedAt ? formatTime(audit.completedAt) : formatTime(facts.signingTime);
  const text = outcome === 'signed'
    ? `${when}: all ${audit.recipients.length} recipient${audit.recipients.length === 1 ? '' : 's'} signed; the document was sealed ${formatTime(facts.signingTime)}.`
    : `${when}: the form was ${outcome}; it was not completed.`;
  await section(w, 'Completed');
  await row(w, outcome === 'signed' ? 'Completed' : 'Ended', text, 'regular');
  w.y -= 6;
}

function footer(w: PageWriter, audit: AuditTrail, facts: SealFacts, pageIndex: number, pageCount: number): void {
  const page = w.pages[pageIndex]!;
  const y = w.margin - 10;
  page.drawLine({ start: { x: w.margin, y: y + 14 }, end: { x: w.width - w.margin, y: y + 14 }, thickness: 0.6, color: COLOURS.rule });
  const left = `Document ${audit.documentId}  ·  sealed ${formatTime(facts.signingTime)}`;
  w.label(left, w.margin, y, 7.5, 'regular', COLOURS.muted, page);
  const right = `Audit trail ${pageIndex + 1} of ${pageCount}`;
  w.label(right, w.width - w.margin - w.widthOf(right, 7.5, 'regular'), y, 7.5, 'regular', COLOURS.muted, page);
}

/** Appends the audit trail as one or more pages at the end of `doc`. */
export async function appendAuditTrail(doc: PDFDocument, fonts: DocumentFonts, audit: AuditTrail, facts: SealFacts): Promise<void> {
  const w = await PageWriter.create(doc, fonts, (pw) => header(pw, 'Audit trail', `Signature record for ${audit.formId}`));
  await section(w, 'Document');
  await row(w, 'Form', audit.formName ?? '(untitled)');
  await row(w, 'Form ID', audit.formId, 'mono', 9);
  await row(w, 'Document ID', audit.documentId, 'mono', 9);
  if (audit.sentBy) await row(w, 'Sent by', audit.sentBy);
  await row(w, 'Sealed at', formatTime(facts.signingTime), 'regular');
  await row(w, 'Sealed by', facts.sealedBy);
  await row(w, 'Original template SHA-256', audit.templateSha256 ?? 'none (template made without a file)', audit.templateSha256 ? 'mono' : 'regular', 8);
  await row(w, 'Final document SHA-256', audit.filledSha256, 'mono', 8);
  await row(w, '', 'the completed document before the seal signature: what the seal covers, as shown', 'regular', 8);
  if (audit.sealedFileSha256) await row(w, 'Signed PDF SHA-256', audit.sealedFileSha256, 'mono', 8);
  w.y -= 10;
  await section(w, `Recipients (${audit.recipients.length})`);
  for (const [i, r] of audit.recipients.entries()) await recipient(w, r, i + 1);
  await completed(w, audit, facts);
  w.need(60);
  const note = await w.block(
    (audit.sealedFileSha256 === undefined
      ? 'This page is part of the sealed document. The document, this page included, carries a PAdES digital signature by the certificate named above; any change made after sealing invalidates it. '
      : 'This is a copy of the audit trail for filing; it is not signed itself. The signed PDF, whose SHA-256 is given above, carries the same pages under its seal. ')
      + 'The final document SHA-256 is that of the document as the signers completed it (every value filled), before the seal: sealing then flattened it, '
      + 'drew the signatures, appended these pages and signed the result, so the seal covers that document as shown, and nothing can be changed after it without breaking the seal. '
      + 'Anyone can check a signed PDF at /verify on this service.',
    w.contentWidth, 8, 'regular');
  w.draw(note, w.margin, COLOURS.muted);
  w.pages.forEach((_, i) => footer(w, audit, facts, i, w.pages.length));
}
