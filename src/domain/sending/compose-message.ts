import type { Channel } from '../../db/tables.js';
import { DEFAULT_LOCALE, fill, formatUtc, t, type Locale } from '../../lib/i18n/index.js';
import { roleWords } from '../../lib/i18n/role-words.js';
import type { RecipientRole } from '../../db/tables.js';
import type { BrandLook } from '../branding/brand-look.js';
import { clip, escapeHtml, formatWhen, oneLine, renderEmail, type EmailContent } from './message-layout.js';

// What each kind of message says, one block per kind; the layout they share is message-layout.ts.
// Messages are composed when their cause is written (a send, a seal, a view) and stored as composed
// (the messages table), so what was sent is on record. Pure: no clock, no I/O. Every value is escaped
// in the HTML part and kept to one line in the subject; an SMS says who, what, and the link.
// What a signer gets is in their language (lib/i18n catalogues: the recipient's locale, else the
// account's); the notices to the account stay in English.

export { escapeHtml };

/** E-mail: subject, text and html; SMS: text alone. */
export interface ComposedMessage {
  readonly channel: Channel;
  readonly subject?: string;
  readonly text: string;
  readonly html?: string;
}

/** The display name of every e-mail an account sends: `Acme via Formsign` (the address is MAIL_FROM's). */
export function senderDisplayName(accountName: string): string {
  return `${clip(oneLine(accountName), 100)} via Formsign`;
}

/** "24 December 2026, 14:05 UTC", in the reader's language when given (kept under its first name). */
export function formatExpiry(iso: string, locale: Locale = DEFAULT_LOCALE): string {
  return locale === DEFAULT_LOCALE ? formatWhen(iso) : formatUtc(locale, iso);
}

// ---------------------------------------------------------------------------------------------------
// Invitation: a recipient is asked to sign (send-form.ts).

export interface MessageInput {
  readonly channel: Channel;
  /** The e-mail address or E.164 number. */
  readonly to: string;
  readonly recipientName: string | null;
  readonly formName: string;
  /** The sending account's name: who asks. */
  readonly accountName: string;
  readonly signingUrl: string;
  /** RFC 3339; null when the form has no expiry. */
  readonly expiresAt: string | null;
  /** The recipient's language (lib/i18n pickLocale); English when not given. */
  readonly locale?: Locale;
  /** What the recipient does (issue 42): an approver, a cc and a viewer are asked other things than a signer. */
  readonly role?: RecipientRole;
  /** The sender's own words (issue 42), quoted as written (escaped in the HTML part, line breaks kept). */
  readonly message?: string | null;
  /** The send's own subject line (issue 42), in place of the default one. */
  readonly subject?: string | null;
  /** The account's brand (issue 42); its name replaces the account's. */
  readonly brand?: BrandLook | undefined;
}

/** The brand's part of an e-mail, and the name that says who asks. */
function branded(accountName: string, brand: BrandLook | undefined): { account: string; brand?: EmailContent['brand'] } {
  return brand ? { account: oneLine(brand.name), brand } : { account: oneLine(accountName) };
}

/** The most a send's (or a recipient's) message may say (issue 42). */
export const MAX_MESSAGE_CHARS = 1000;

/** The sender's message as the e-mail quotes it: trimmed, at most 1,000 characters, no control characters but line breaks. */
function quoteOf(message: string | null | undefined, account: string, locale: Locale): EmailContent['quote'] {
  const text = message?.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, ' ').trim();
  return text ? { label: fill(roleWords(locale).messageFrom, { account }), text: clip(text, MAX_MESSAGE_CHARS) } : undefined;
}

/** The invitation (the name `composeMessage` is the first kind's, kept for its callers). */
export function composeMessage(m: MessageInput): ComposedMessage {
  const locale = m.locale ?? DEFAULT_LOCALE;
  const { account, brand } = branded(m.accountName, m.brand);
  const form = oneLine(m.formName);
  const role = m.role ?? 'signer';
  const words = roleWords(locale);
  if (m.channel === 'sms') {
    const vars = { account: clip(account, 40), form: clip(form, 60), url: m.signingUrl };
    return { channel: 'sms', text: role === 'signer' ? t(locale, 'sms.invite', vars) : fill(words[`${role}.sms` as const], vars) };
  }
  const name = m.recipientName ? oneLine(m.recipientName) : null;
  const vars = { account, form };
  const { text, html } = renderEmail({
    locale,
    account,
    ...(brand ? { brand } : {}),
    heading: role === 'signer' ? t(locale, 'email.heading', { form }) : fill(words[`${role}.heading` as const], vars),
    greeting: name ? t(locale, 'email.helloName', { name }) : t(locale, 'email.hello'),
    paragraphs: [role === 'signer' ? t(locale, 'email.asks', vars) : fill(words[`${role}.asks` as const], vars)],
    quote: quoteOf(m.message, account, locale),
    action: { label: role === 'signer' ? t(locale, 'email.button') : words[`${role}.button` as const], textLabel: t(locale, 'email.openLabel'), url: m.signingUrl },
    notes: m.expiresAt && role !== 'cc' ? [t(locale, 'email.expiry', { date: formatExpiry(m.expiresAt, locale) })] : [],
    footer: t(locale, 'email.why', { account, form, to: m.to }),
  });
  const subject = m.subject ? oneLine(m.subject) : role === 'signer' ? t(locale, 'email.subject', vars) : fill(words[`${role}.subject` as const], vars);
  return { channel: 'email', subject: clip(subject, 200), text, html };
}

// ---------------------------------------------------------------------------------------------------
// Completed copy: every recipient gets the sealed PDF (completed-copy.ts), attached when it is small
// enough, else as a download link that works for 30 days. An SMS always carries the link.

/** How the sealed PDF travels: attached (the link is then a spare), or by link alone. */
export interface CopyDelivery {
  readonly attached: boolean;
  /** The presigned download address. */
  readonly url: string;
  /** RFC 3339: when the download address stops working. */
  readonly urlExpiresAt: string;
}

export interface CompletedCopyInput {
  readonly channel: Channel;
  readonly to: string;
  readonly recipientName: string | null;
  readonly formName: string;
  readonly accountName: string;
  readonly copy: CopyDelivery;
  /** The recipient's language; English when not given. */
  readonly locale?: Locale;
  readonly brand?: BrandLook | undefined;
}

export function composeCompletedCopy(m: CompletedCopyInput): ComposedMessage {
  const locale = m.locale ?? DEFAULT_LOCALE;
  const { account, brand } = branded(m.accountName, m.brand);
  const form = oneLine(m.formName);
  if (m.channel === 'sms') {
    return { channel: 'sms', text: t(locale, 'copy.sms', { form: clip(form, 60), account: clip(account, 40), url: m.copy.url }) };
  }
  const name = m.recipientName ? oneLine(m.recipientName) : null;
  const download = t(locale, 'copy.download');
  const { text, html } = renderEmail({
    locale,
    account,
    ...(brand ? { brand } : {}),
    heading: t(locale, 'copy.heading', { form }),
    greeting: name ? t(locale, 'email.helloName', { name }) : t(locale, 'email.hello'),
    paragraphs: [t(locale, m.copy.attached ? 'copy.attached' : 'copy.link', { form }), t(locale, 'copy.seal')],
    ...(m.copy.attached ? {} : { action: { label: download, textLabel: download, url: m.copy.url } }),
    notes: m.copy.attached ? [] : [t(locale, 'email.expiry', { date: formatExpiry(m.copy.urlExpiresAt, locale) })],
    footer: t(locale, 'copy.why', { form, account, to: m.to }),
  });
  return { channel: 'email', subject: clip(t(locale, 'copy.subject', { form }), 200), text, html };
}

// ---------------------------------------------------------------------------------------------------
// Sender notices: the account's notify_email is told of a completed form (with the PDF), a decline
// (with the reason) and, if it opted in, a first view (sender-notice.ts).

export type NoticeInput = {
  readonly to: string;
  readonly accountName: string;
  readonly formName: string;
  readonly formId: string;
} & (
  | { readonly kind: 'completed'; readonly copy: CopyDelivery; readonly signers: readonly string[] }
  | { readonly kind: 'declined'; readonly recipient: string; readonly reason: string | null; readonly at: string }
  | { readonly kind: 'viewed'; readonly recipient: string; readonly at: string }
  | { readonly kind: 'reassigned'; readonly recipient: string; readonly previous: string; readonly reason: string | null; readonly at: string }
);

export function composeSenderNotice(n: NoticeInput): ComposedMessage {
  const account = oneLine(n.accountName);
  const form = oneLine(n.formName);
  const footer = `You received this e-mail because ${n.to} is the notification address of ${account} on Formsign (form ${n.formId}).`;
  const content = noticeContent(n, form);
  const { text, html } = renderEmail({ account, greeting: null, footer, ...content });
  return { channel: 'email', subject: clip(content.subject, 200), text, html };
}

function noticeContent(n: NoticeInput, form: string) {
  switch (n.kind) {
    case 'completed':
      return {
        subject: `Completed: "${form}"`,
        heading: `“${form}” is signed`,
        paragraphs: [
          `Everyone has signed "${form}"${n.signers.length > 0 ? `: ${n.signers.map(oneLine).join(', ')}` : ''}.`,
          n.copy.attached ? 'The sealed PDF is attached to this e-mail.' : 'Download the sealed PDF with the link below.',
        ],
        ...(n.copy.attached ? {} : { action: { label: 'Download the signed PDF', textLabel: 'Download the signed PDF', url: n.copy.url } }),
        notes: n.copy.attached ? [] : [`This link works until ${formatWhen(n.copy.urlExpiresAt)}.`],
      };
    case 'declined':
      return {
        subject: `Declined: ${oneLine(n.recipient)} declined to sign "${form}"`,
        heading: `${oneLine(n.recipient)} declined to sign`,
        paragraphs: [
          `${oneLine(n.recipient)} declined to sign "${form}" on ${formatWhen(n.at)}. The form is closed; its links no longer work.`,
          n.reason ? `Their reason: "${oneLine(n.reason)}"` : 'They gave no reason.',
        ],
      };
    case 'viewed':
      return {
        subject: `Viewed: ${oneLine(n.recipient)} opened "${form}"`,
        heading: `${oneLine(n.recipient)} opened “${form}”`,
        paragraphs: [`${oneLine(n.recipient)} opened "${form}" on ${formatWhen(n.at)}. You will hear again when it is signed.`],
      };
    case 'reassigned':
      return {
        subject: `Reassigned: ${oneLine(n.previous)} passed "${form}" to ${oneLine(n.recipient)}`,
        heading: `${oneLine(n.previous)} passed “${form}” on`,
        paragraphs: [
          `${oneLine(n.previous)} passed "${form}" to ${oneLine(n.recipient)} on ${formatWhen(n.at)}. Their link no longer works; ${oneLine(n.recipient)} was sent a new one.`,
          n.reason ? `Their reason: "${oneLine(n.reason)}"` : 'They gave no reason.',
        ],
      };
  }
}

// ---------------------------------------------------------------------------------------------------
// After sending (lifecycle): the reminder, with the invite's link, and the void notice.

/**
 * A reminder: the invite's facts again, said as a reminder, with the same link, in the recipient's
 * language. An approver or a viewer is reminded in their role's words (the invitation's, marked as a
 * reminder); every role's reminder quotes the sender's message again. A cc is never reminded
 * (lifecycle-rules `remindable`): nothing is asked of them.
 */
export function composeReminder(m: MessageInput): ComposedMessage {
  const locale = m.locale ?? DEFAULT_LOCALE;
  const { account, brand } = branded(m.accountName, m.brand);
  const form = oneLine(m.formName);
  const role = m.role ?? 'signer';
  const words = roleWords(locale);
  const again = (text: string) => fill(words.reminder, { text });
  if (m.channel === 'sms') {
    const vars = { account: clip(account, 40), form: clip(form, 60), url: m.signingUrl };
    return { channel: 'sms', text: role === 'signer' ? t(locale, 'remind.sms', vars) : again(fill(words[`${role}.sms` as const], vars)) };
  }
  const name = m.recipientName ? oneLine(m.recipientName) : null;
  const vars = { account, form };
  const { text, html } = renderEmail({
    locale,
    account,
    ...(brand ? { brand } : {}),
    heading: role === 'signer' ? t(locale, 'remind.heading', { form }) : again(fill(words[`${role}.heading` as const], vars)),
    greeting: name ? t(locale, 'email.helloName', { name }) : t(locale, 'email.hello'),
    paragraphs: [role === 'signer' ? t(locale, 'remind.asks', vars) : fill(words[`${role}.asks` as const], vars)],
    quote: quoteOf(m.message, account, locale),
    action: { label: role === 'signer' ? t(locale, 'email.button') : words[`${role}.button` as const], textLabel: t(locale, 'email.openLabel'), url: m.signingUrl },
    notes: m.expiresAt ? [t(locale, 'email.expiry', { date: formatExpiry(m.expiresAt, locale) })] : [],
    // remind.why says "not signed yet": a signer's reason; the others are told why they got the invitation.
    footer: t(locale, role === 'signer' ? 'remind.why' : 'email.why', { account, form, to: m.to }),
  });
  const subject = role === 'signer' ? t(locale, 'remind.subject', vars) : again(fill(words[`${role}.subject` as const], vars));
  return { channel: 'email', subject: clip(subject, 200), text, html };
}

export interface VoidNoticeInput {
  readonly channel: Channel;
  readonly to: string;
  readonly recipientName: string | null;
  readonly formName: string;
  readonly accountName: string;
  readonly reason: string | null;
  /** The recipient's language (lib/i18n pickLocale); English when not given. */
  readonly locale?: Locale;
  readonly brand?: BrandLook | undefined;
}

/** The sender withdrew the form: a short notice that the link no longer works, with the reason if given. */
export function composeVoidNotice(m: VoidNoticeInput): ComposedMessage {
  const locale = m.locale ?? DEFAULT_LOCALE;
  const { account, brand } = branded(m.accountName, m.brand);
  const form = oneLine(m.formName);
  const reason = m.reason ? oneLine(m.reason) : null;
  if (m.channel === 'sms') return { channel: 'sms', text: t(locale, 'void.sms', { account: clip(account, 40), form: clip(form, 60) }) };
  const name = m.recipientName ? oneLine(m.recipientName) : null;
  const { text, html } = renderEmail({
    locale,
    account,
    ...(brand ? { brand } : {}),
    heading: t(locale, 'void.heading', { form }),
    greeting: name ? t(locale, 'email.helloName', { name }) : t(locale, 'email.hello'),
    paragraphs: [t(locale, 'void.text', { account, form }), ...(reason ? [t(locale, 'void.reason', { reason })] : [])],
    notes: [],
    footer: t(locale, 'void.why', { account, form, to: m.to }),
  });
  return { channel: 'email', subject: clip(t(locale, 'void.subject', { form, account }), 200), text, html };
}
