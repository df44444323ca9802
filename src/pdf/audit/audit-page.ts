// The audit-trail page(s) appended to a sealed document: what was signed (form, document id, the
// SHA-256 of the original template and of the filled document before sealing), by whom, and each
// recipient's trail (sent, viewed, signed or declined: time, IP address, user agent), with the
// signature they made, the consent they agreed to (as shown, in its language), how they were reached
// and their time zone; who sent the form and how it ended (completed, declined, withdrawn, expired).
// The same pages make the audit trail served alone (audit-document.ts), also for forms that ended
// without a seal. In the audit trail's language (`locale`); times in UTC, each signer's offset stated.
import { rgb, type PDFDocument, type PDFImage, type RGB } from '@cantoo/pdf-lib';
import { isLocale, type Locale } from '../../lib/i18n/index.js';
import { fileSizeText } from '../../lib/file-size.js';
import type { DocumentFonts, HanStyle } from '../fill/index.js';
import { isolate, ltr } from '../shared/bidi-layout.js';
import { roleAuditWords } from './role-words.js';
import { checkAuditWords } from './check-words.js';
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
  /** The language the consent was shown in (a catalogue code); English when not given. */
  consentLocale?: string | null;
  /** The signer's UTC offset as their browser reported it at signing, e.g. "UTC+01:00". */
  utcOffset?: string | null;
  /** The recipient declined to sign (issue #23): when, and the reason they gave, if any. */
  declinedAt?: string | null;
  declineReason?: string | null;
  /** What their signature means (issue 38), as the send gave it. */
  meaning?: string | null;
  /** What the recipient did (issue 42); absent or `signer`: they signed. An approver's `signedAt` is when they approved. */
  role?: 'signer' | 'approver' | 'cc' | 'viewer';
  /** The identity check the sender asked of them (issue 38): method, when, the masked destination. */
  check?: { method: 'email_code' | 'sms_code' | 'access_code'; when: 'open' | 'sign'; destination: string | null } | null;
  /** What happened in the check, oldest first: codes sent (masked destination), verified, wrong codes, locks. */
  checkLog?: ReadonlyArray<{ kind: 'code_sent' | 'verified' | 'failed' | 'locked'; purpose: 'open' | 'sign'; at: string; ip: string | null; destination: string | null }>;
  /** Who held this recipient's earlier links (issue 38 item 5), oldest first: the person, who replaced them, why. */
  replaced?: ReadonlyArray<{ who: string; by: 'sender' | 'signer'; reason: string | null; at: string }>;
}

export interface AuditTrail {
  formId: string;
  formName: string | null;
  documentId: string;
  /** SHA-256 (hex) of the template file as uploaded; null for templates made without one. */
  templateSha256: string | null;
  /**
   * SHA-256 (hex) of the filled document before sealing (the bytes sealing starts from), when it was a
   * file of its own; null when none was recorded, and for a seal that filled the template itself.
   */
  filledSha256: string | null;
  recipients: readonly AuditRecipient[];
  /** The account that sent the form. */
  sentBy?: string | null;
  /**
   * The sending account's brand (issue 42): its accent (`#rrggbb`, 4.5:1 on white, so white text on it
   * reads) colours the header band, its PNG logo sits in the band (an SVG logo is not drawn: the
   * header then names the sender alone), and its sender name is the one stated.
   */
  brand?: { accent: string | null; logoPng: Uint8Array | null } | null;
  /** When the form reached its end (every recipient signed, or declined, or voided). */
  completedAt?: string | null;
  /** How it ended: `signed`, or a terminal status: `declined`, `voided` or `expired`. */
  outcome?: string;
  /** The sender withdrew the form (issue #23): the reason they gave, if any. */
  voidReason?: string | null;
  /** The audit trail alone (GET …/audit-trail): the SHA-256 of the sealed file it belongs to, if sealed. */
  sealedFileSha256?: string | null;
  /** The language of the pages (a catalogue code); English when not given. */
  locale?: string | null;
  /**
   * The files the signers attached (issue 41), each with its SHA-256; in a sealed document, the pages
   * it was appended as.
   */
  attachments?: ReadonlyArray<{ filename: string; contentType: string; sha256: string; size: number; firstPage?: number; lastPage?: number }>;
}

export interface SealFacts {
  /** When the document was sealed; for a form that ended without a seal, when it ended. */
  signingTime: Date;
  /** The certificate the document is sealed with; null when it was not sealed. */
  sealedBy: string | null;
}

/** The audit trail's language: its `locale` when a catalogue exists for it, else English. */
export function auditLocale(audit: Pick<AuditTrail, 'locale'>): Locale {
  return audit.locale && isLocale(audit.locale) ? audit.locale : 'en';
}

/** How the audit pages draw Han characters: as the language of the pages writes them. */
export function hanStyleOf(locale: Locale): HanStyle {
  return locale === 'zh' || locale === 'ko' ? locale : 'ja';
}

/**
 * "2026-11-24 09:30:05 UTC" from an ISO timestamp (anything unparseable as given): the same in every
 * language, and kept left to right inside a right-to-left sentence (a bidi isolate, not drawn).
 */
export function formatTime(value: string | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  return ltr(Number.isNaN(date.getTime()) ? String(value) : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`);
}

const LABEL_WIDTH = 150;

export async function header(w: PageWriter, title: string, subtitle: string, brand?: { accent: RGB | null; logo: PDFImage | null }): Promise<void> {
  const top = w.size[1];
  w.rect(0, top - 78, w.width, 78, { color: brand?.accent ?? COLOURS.accent });
  if (brand?.logo) {
    // A white plate at the band's end, the logo fitted inside it (any logo reads on white).
    const plate = { x: w.width - w.margin - 120, y: top - 66, width: 120, height: 54 };
    w.rect(plate.x, plate.y, plate.width, plate.height, { color: COLOURS.white });
    w.image(brand.logo, fitCentred(brand.logo, plate, 6));
  }
  await w.text(title, w.margin, 20, 'bold', COLOURS.white, top - 44);
  await w.text(subtitle, w.margin, 9, 'regular', COLOURS.rule, top - 62);
  w.y = top - 78 - 32;
}

async function section(w: PageWriter, title: string): Promise<void> {
  await w.need(40);
  // Capitals where the script has them (toLocaleUpperCase leaves Arabic, Hebrew and CJK as they are).
  await w.text(title.toLocaleUpperCase(w.locale), w.margin, 9, 'bold', COLOURS.accent);
  w.y -= 7;
  w.rule();
  w.y -= 16;
}

/** A label in the label column and a wrapped value beside it. */
async function row(w: PageWriter, label: string, value: string, style: 'value' | 'mono' | 'regular' = 'value', size = 10): Promise<void> {
  const b = await w.block(value, w.contentWidth - LABEL_WIDTH, size, style);
  const l = await w.block(label, LABEL_WIDTH - 8, 8.5, 'regular');
  await w.need(Math.max(w.blockHeight(b), w.blockHeight(l)));
  w.draw(l, w.margin, COLOURS.muted);
  w.draw(b, w.margin + LABEL_WIDTH);
  w.y -= Math.max(w.blockHeight(b), w.blockHeight(l), 13) + 4;
}

const EVENT_COLUMNS = [
  { title: 'audit.colEvent', width: 58 }, { title: 'audit.colTime', width: 122 }, { title: 'audit.colIp', width: 92 }, { title: 'audit.colAgent', width: 0 },
] as const;

/** A row of a recipient's trail; `label` and `detail` for the rows of a check (issue 38), in the check's words. */
type EventLine = { event: 'sent' | 'reminded' | 'viewed' | 'signed' | 'declined' | 'check'; at: string | null; ip: string | null; agent: string | null; label?: string };
const EVENT_WORDS = { sent: 'audit.eventSent', reminded: 'audit.eventReminded', viewed: 'audit.eventViewed', signed: 'audit.eventSigned', declined: 'audit.eventDeclined' } as const;

/** The rows of a recipient's check: each code sent (where to), passed, refused, each lock, with the check it was for. */
function checkLines(w: PageWriter, r: AuditRecipient): EventLine[] {
  const c = checkAuditWords(w.locale);
  return (r.checkLog ?? []).map((e) => {
    const purpose = e.purpose === 'sign' ? c.purposeSign : c.purposeOpen;
    const detail = e.kind === 'code_sent' && e.destination ? `${purpose} · ${c.sentTo.replace('{to}', ltr(e.destination))}` : e.kind === 'locked' ? `${purpose} · ${c.lockedFor}` : purpose;
    return { event: 'check', label: c[e.kind], at: e.at, ip: e.ip, agent: detail };
  });
}

/** Oldest first; rows that have not happened (no time) stay last, in their order. */
function byTime(lines: EventLine[]): EventLine[] {
  return lines.map((l, i) => ({ l, i })).sort((a, b) => (a.l.at === null ? (b.l.at === null ? a.i - b.i : 1) : b.l.at === null ? -1 : a.l.at < b.l.at ? -1 : a.l.at > b.l.at ? 1 : a.i - b.i)).map((x) => x.l);
}

async function eventTable(w: PageWriter, r: AuditRecipient): Promise<void> {
  const widths = EVENT_COLUMNS.map((c) => c.width || w.contentWidth - 12 - EVENT_COLUMNS.reduce((n, x) => n + x.width, 0));
  const xs = widths.map((_, i) => w.margin + 12 + widths.slice(0, i).reduce((n, x) => n + x, 0));
  await w.need(14);
  for (const [i, c] of EVENT_COLUMNS.entries()) w.draw(await w.block(w.t(c.title), widths[i]! - 4, 7.5, 'bold'), xs[i]!, COLOURS.muted);
  w.y -= 12;
  const events: EventLine[] = byTime([
    { event: 'sent', at: r.sentAt, ip: null, agent: null },
    // Reminders were sent after the invite, whether or not the recipient had opened it.
    ...(r.remindedAt ?? []).map((at): EventLine => ({ event: 'reminded', at, ip: null, agent: null })),
    // A check passed at opening comes before the view it let through (the same second, in a fast test).
    ...checkLines(w, r),
    { event: 'viewed', at: r.viewedAt, ip: r.viewedIp, agent: r.viewedUserAgent },
    // A recipient who declined is shown declining (the decline is recorded with its time only).
    r.declinedAt && !r.signedAt
      ? { event: 'declined', at: r.declinedAt, ip: null, agent: null }
      : { event: 'signed', at: r.signedAt, ip: r.signedIp, agent: r.signedUserAgent },
  ]);
  for (const { event, at, ip, agent, label } of events) {
    const recordsClient = event === 'viewed' || event === 'signed';
    const cells = await Promise.all([
      w.block(event === 'check' ? label ?? '' : event === 'signed' && r.role === 'approver' ? roleAuditWords(w.locale).approved : w.t(EVENT_WORDS[event]), widths[0]! - 4, 9, 'regular'),
      w.block(at ? formatTime(at) : '—', widths[1]!, 9, 'regular'),
      w.block(ip ?? (at && recordsClient ? w.t('audit.notRecorded') : ''), widths[2]!, 9, 'value'),
      w.block(agent ?? '', widths[3]!, 7.5, 'value', 9.5),
    ]);
    const height = Math.max(...cells.map((c) => w.blockHeight(c)));
    await w.need(height + 4);
    w.rule(w.y + 9, COLOURS.band, w.margin + 12);
    cells.forEach((c, i) => w.draw(c, xs[i]!, i === 0 ? COLOURS.muted : COLOURS.ink));
    w.y -= height + 4;
  }
}

/** The consent's language, named in the audit trail's language ("German", "Deutsch" in German). */
function languageName(w: PageWriter, code: string): string {
  try {
    return new Intl.DisplayNames([w.locale], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

async function recipient(w: PageWriter, r: AuditRecipient, index: number): Promise<void> {
  await w.need(120);
  // A band with the recipient's name and role.
  w.rect(w.margin, w.y - 7, w.contentWidth, 22, { color: COLOURS.band });
  const number = `${index}.`;
  await w.text(number, w.margin + 8, 10.5, 'bold', COLOURS.accent);
  const roleName = r.role && r.role !== 'signer' ? roleAuditWords(w.locale)[r.role] : w.t('audit.signer', { number: r.signer });
  const role = `${roleName}  ·  ${w.t(r.channel === 'sms' ? 'audit.channelSms' : 'audit.channelEmail')}`;
  const roleWidth = await w.widthOf(role, 8.5, 'regular');
  const nameX = w.margin + 14 + Math.max(12, await w.widthOf(number, 10.5, 'bold'));
  const name = await w.block(r.name || w.t('audit.noName'), w.contentWidth - (nameX - w.margin) - roleWidth - 20, 10.5, 'value');
  w.draw({ ...name, lines: name.lines.slice(0, 1) }, nameX);
  await w.text(role, w.margin + 8, 8.5, 'regular', COLOURS.muted, w.y, { align: 'end' });
  w.y -= 28;
  const address = r.channel === 'sms' ? r.phone : r.email;
  const other = r.channel === 'sms' ? r.email : r.phone;
  await row(w, w.t(r.channel === 'sms' ? 'audit.deliveredPhone' : 'audit.deliveredEmail'), address ?? '—');
  if (other) await row(w, w.t(r.channel === 'sms' ? 'audit.channelEmail' : 'audit.phone'), other);
  // A recipient with a check (issue 38) was not "whoever opened the link": the check says who.
  if (r.check) await checkRow(w, r);
  else await row(w, w.t('audit.authentication'), w.t(r.channel === 'sms' ? 'audit.authSms' : 'audit.authEmail', { address: address ?? '—' }), 'regular');
  if (r.meaning) await row(w, checkAuditWords(w.locale).meaning, isolate(r.meaning), 'value');
  if (r.signedAt) await row(w, w.t('audit.timeZone'), r.utcOffset ?? w.t('audit.timeZoneUnknown'), 'regular');
  if (r.consentText) {
    const agreed = w.t('audit.consentAgreed', { time: formatTime(r.signedAt ?? ''), language: languageName(w, r.consentLocale ?? 'en') });
    // Quoted in its own language and direction, whatever the page's.
    await row(w, w.t('audit.consent'), `"${isolate(r.consentText)}"\n${agreed}`, 'value', 8.5);
  }
  if (r.declinedAt) await row(w, w.t('audit.declineReason'), r.declineReason || w.t('audit.noReason'), 'value');
  if (r.replaced?.length) await replacedRow(w, r.replaced);
  for (const mark of r.marks ?? []) await markRow(w, mark);
  w.y -= 2;
  await eventTable(w, r);
  w.y -= 14;
}

/** The check asked of the recipient (how, when) and its counts: codes sent, wrong codes, locks. */
async function checkRow(w: PageWriter, r: AuditRecipient): Promise<void> {
  const c = checkAuditWords(w.locale);
  const check = r.check!;
  const how = c[check.method].replace('{to}', ltr(check.destination ?? '—'));
  const log = r.checkLog ?? [];
  const count = (kind: string) => String(log.filter((e) => e.kind === kind).length);
  const summary = c.summary.replace('{sent}', count('code_sent')).replace('{failed}', count('failed')).replace('{locked}', count('locked'));
  await row(w, w.t('audit.authentication'), `${how}; ${check.when === 'sign' ? c.whenSign : c.whenOpen}.\n${summary}`, 'regular');
}

/** The people this recipient replaced (issue 38 item 5): who, when, by whom, and the signer's reason. */
async function replacedRow(w: PageWriter, replaced: NonNullable<AuditRecipient['replaced']>): Promise<void> {
  const c = checkAuditWords(w.locale);
  const lines = replaced.map((e) => {
    const line = (e.by === 'signer' ? c.passedOn : c.replacedBySender).replace('{who}', isolate(e.who)).replace('{time}', formatTime(e.at));
    return e.reason ? `${line}: "${isolate(e.reason)}"` : line;
  });
  await row(w, c.replaced, lines.join('\n'), 'value');
}

const MARK_BOX = { width: 190, height: 56 };
const MARK_WORDS = { signature: { drawn: 'audit.signatureDrawn', typed: 'audit.signatureTyped' }, initials: { drawn: 'audit.initialsDrawn', typed: 'audit.initialsTyped' } } as const;

/** A signature or initials image in a framed box beside its label. */
async function markRow(w: PageWriter, mark: NonNullable<AuditRecipient['marks']>[number]): Promise<void> {
  await w.need(MARK_BOX.height + 8);
  w.draw(await w.block(w.t(MARK_WORDS[mark.kind][mark.method]), LABEL_WIDTH - 8, 8.5, 'regular'), w.margin, COLOURS.muted);
  const image = await w.page.doc.embedPng(mark.png);
  const x = w.margin + LABEL_WIDTH;
  const top = w.y + 9;
  w.rect(x, top - MARK_BOX.height, MARK_BOX.width, MARK_BOX.height, { borderColor: COLOURS.rule, borderWidth: 0.6 });
  w.image(image, fitCentred(image, { x, y: top - MARK_BOX.height, ...MARK_BOX }, 4));
  w.y -= MARK_BOX.height + 6;
}

/** The line that says how and when the form ended. */
async function completed(w: PageWriter, audit: AuditTrail, facts: SealFacts): Promise<void> {
  const outcome = audit.outcome ?? 'signed';
  const time = audit.completedAt ? formatTime(audit.completedAt) : formatTime(facts.signingTime);
  const count = audit.recipients.length;
  const decliner = audit.recipients.find((r) => r.declinedAt);
  const text = outcome === 'signed'
    ? w.t(count === 1 ? 'audit.completedOne' : 'audit.completedMany', { time, count, sealed: formatTime(facts.signingTime) })
    : outcome === 'declined' ? w.t('audit.endedDeclined', { time, name: decliner?.name || decliner?.email || decliner?.phone || w.t('audit.noName') })
      : outcome === 'voided' ? w.t('audit.endedVoided', { time, sender: audit.sentBy ?? '—' })
        : w.t('audit.endedExpired', { time });
  await section(w, w.t('audit.sectionCompleted'));
  await row(w, w.t(outcome === 'signed' ? 'audit.completed' : 'audit.ended'), text, 'value');
  if (outcome === 'voided') await row(w, w.t('audit.voidReason'), audit.voidReason || w.t('audit.noReason'), 'value');
  w.y -= 6;
}

async function footer(w: PageWriter, audit: AuditTrail, facts: SealFacts, pageIndex: number, pageCount: number): Promise<void> {
  const page = w.pages[pageIndex]!;
  const y = w.margin - 10;
  w.rule(y + 14, COLOURS.rule, w.margin, w.width - w.margin, page);
  const left = facts.sealedBy === null
    ? w.t('audit.footerEnded', { id: audit.formId, time: formatTime(facts.signingTime) })
    : w.t('audit.footerSealed', { id: audit.documentId, time: formatTime(facts.signingTime) });
  await w.text(left, w.margin, 7.5, 'regular', COLOURS.muted, y, { page });
  await w.text(w.t('audit.pageOf', { page: pageIndex + 1, count: pageCount }), w.margin, 7.5, 'regular', COLOURS.muted, y, { page, align: 'end' });
}

/** The brand as the header draws it; a logo pdf-lib cannot read is left out rather than failing the seal. */
async function brandOf(doc: PDFDocument, brand: AuditTrail['brand']): Promise<{ accent: RGB | null; logo: PDFImage | null } | undefined> {
  if (!brand) return undefined;
  const hex = brand.accent ? /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(brand.accent) : null;
  const accent = hex ? rgb(parseInt(hex[1]!, 16) / 255, parseInt(hex[2]!, 16) / 255, parseInt(hex[3]!, 16) / 255) : null;
  let logo: PDFImage | null = null;
  try {
    logo = brand.logoPng ? await doc.embedPng(brand.logoPng) : null;
  } catch {
    logo = null;
  }
  return { accent, logo };
}

/** Appends the audit trail as one or more pages at the end of `doc`, in the audit trail's language. */
export async function appendAuditTrail(doc: PDFDocument, fonts: DocumentFonts, audit: AuditTrail, facts: SealFacts): Promise<void> {
  const locale = auditLocale(audit);
  const brand = await brandOf(doc, audit.brand);
  const w = await PageWriter.create(doc, fonts, locale, (pw) => header(pw, pw.t('audit.title'), pw.t('audit.subtitle', { form: audit.formId }), brand));
  const sealed = facts.sealedBy !== null;
  await section(w, w.t('audit.sectionDocument'));
  await row(w, w.t('audit.form'), audit.formName ?? w.t('audit.untitled'));
  await row(w, w.t('audit.formId'), audit.formId, 'mono', 9);
  if (sealed) await row(w, w.t('audit.documentId'), audit.documentId, 'mono', 9);
  if (audit.sentBy) await row(w, w.t('audit.sentBy'), audit.sentBy);
  if (sealed) await row(w, w.t('audit.sealedAt'), formatTime(facts.signingTime), 'regular');
  await row(w, w.t('audit.sealedBy'), facts.sealedBy ?? w.t('audit.notSealed'), facts.sealedBy ? 'value' : 'regular');
  await row(w, w.t('audit.templateSha'), audit.templateSha256 ?? w.t('audit.noTemplate'), audit.templateSha256 ? 'mono' : 'regular', 8);
  // A seal that filled the template in its own parse (one PDF job) had no filled file to hash: the
  // row is left out rather than claimed, or called missing (seal-form.ts).
  if (audit.filledSha256) {
    await row(w, w.t('audit.finalSha'), audit.filledSha256, 'mono', 8);
    await row(w, '', w.t('audit.finalShaNote'), 'regular', 8);
  } else if (!sealed) {
    await row(w, w.t('audit.finalSha'), w.t('audit.finalShaNone'), 'regular', 8);
  }
  if (audit.sealedFileSha256) await row(w, w.t('audit.signedPdfSha'), audit.sealedFileSha256, 'mono', 8);
  w.y -= 10;
  if (audit.attachments && audit.attachments.length > 0) {
    await section(w, w.t('audit.sectionAttachments', { count: audit.attachments.length }));
    for (const a of audit.attachments) {
      await row(w, a.filename, a.sha256, 'mono', 8);
      const pages = a.firstPage === undefined ? '' : a.firstPage === a.lastPage ? ` · ${w.t('audit.attachmentPage', { page: a.firstPage })}` : ` · ${w.t('audit.attachmentPages', { from: a.firstPage, to: a.lastPage ?? a.firstPage })}`;
      await row(w, '', `${a.contentType} · ${fileSizeText(a.size)}${pages}`, 'regular', 8);
    }
    w.y -= 10;
  }
  await section(w, w.t('audit.sectionRecipients', { count: audit.recipients.length }));
  for (const [i, r] of audit.recipients.entries()) await recipient(w, r, i + 1);
  await completed(w, audit, facts);
  const note = !sealed
    ? [w.t('audit.noteUnsealed'), w.t('audit.noteVerify')]
    : [w.t(audit.sealedFileSha256 === undefined ? 'audit.noteSealed' : 'audit.noteCopy'), ...(audit.filledSha256 ? [w.t('audit.noteHash')] : []), w.t('audit.noteVerify')];
  const noteBlock = await w.block(note.join(' '), w.contentWidth, 8, 'regular');
  await w.need(w.blockHeight(noteBlock));
  w.draw(noteBlock, w.margin, COLOURS.muted);
  for (const [i] of w.pages.entries()) await footer(w, audit, facts, i, w.pages.length);
}
