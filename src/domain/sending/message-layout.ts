// The one layout every e-mail shares (invitation, reminder, void, completed copy, notices): the same
// parts in the same places, so each kind only says what it is about. Pure: no clock, no I/O.
import { DEFAULT_LOCALE, directionOf, t, type Locale } from '../../lib/i18n/index.js';

/** What one e-mail says; every string is plain text (escaped here for the HTML part). */
export interface EmailContent {
  /** The reader's language: the page's lang and direction (Arabic, Hebrew right to left), the layout's own words. */
  readonly locale?: Locale;
  /** The account the message comes from, shown small above the heading. */
  readonly account: string;
  readonly heading: string;
  /** "Hello Ada," — null leaves the greeting out (notices to the account). */
  readonly greeting: string | null;
  readonly paragraphs: readonly string[];
  /** The one thing to do, as a button; the address is also written out below it. */
  readonly action?: { readonly label: string; readonly url: string; readonly textLabel: string } | undefined;
  /** Smaller lines after the action (when a link stops working, what is attached). */
  readonly notes?: readonly string[];
  /** One line: who sent it and why the reader got it. */
  readonly footer: string;
  /** The sender's own words (issue 42), quoted after the paragraphs with their line breaks: a label and the text. */
  readonly quote?: { readonly label: string; readonly text: string } | undefined;
  /** The account's brand (issue 42): its logo above the heading, its accent on the button and links. */
  readonly brand?: { readonly name: string; readonly accent: string | null; readonly logoUrl: string | null } | undefined;
}

/** The text part and the HTML part of one e-mail, saying the same things in the same order. */
export function renderEmail(c: EmailContent): { text: string; html: string } {
  const text = [
    ...(c.greeting ? [c.greeting, ''] : []),
    ...c.paragraphs.flatMap((p) => [p, '']),
    ...(c.quote ? [c.quote.label, ...c.quote.text.split('\n').map((l) => `> ${l}`), ''] : []),
    ...(c.action ? [`${c.action.textLabel}: ${c.action.url}`, ''] : []),
    ...(c.notes ?? []).flatMap((n) => [n, '']),
    c.footer,
    '',
  ].join('\n');
  return { text, html: emailHtml(c) };
}

// Colours checked with axe-core (test/messages/message-html-browser.test.ts): every text at least
// 4.5:1 on its background, the small grey ones included.
const INK = '#1f2933';
const MUTED = '#52606d';
const ACCENT = '#1d4ed8';
const LINE = '#e4e7eb';

function emailHtml(c: EmailContent): string {
  const e = escapeHtml;
  const locale = c.locale ?? DEFAULT_LOCALE;
  const dir = directionOf(locale);
  const row = (style: string, inner: string) => `<tr><td style="${style}">${inner}</td></tr>\n`;
  // The accent was checked at 4.5:1 on white when the brand was set (lib/colour-contrast.ts).
  const accent = c.brand?.accent ?? ACCENT;
  const logo = c.brand?.logoUrl
    ? [row('padding:28px 32px 0 32px', `<img src="${e(c.brand.logoUrl)}" alt="${e(c.brand.name)}" height="40" style="display:block;height:40px;max-width:200px;border:0">`)]
    : [];
  const body = [
    ...logo,
    row(`padding:${logo.length > 0 ? '12px' : '28px'} 32px 8px 32px;font-size:13px;color:${MUTED}`, e(c.account)),
    row(`padding:0 32px;font-size:22px;line-height:1.3;font-weight:600;color:${INK}`, e(c.heading)),
    ...(c.greeting ? [row('padding:16px 32px 0 32px;font-size:15px;line-height:1.5', e(c.greeting))] : []),
    ...c.paragraphs.map((p) => row('padding:10px 32px 0 32px;font-size:15px;line-height:1.5', e(p))),
    ...(c.quote
      ? [row('padding:16px 32px 0 32px;font-size:15px;line-height:1.5', `<p style="margin:0 0 6px 0;font-size:13px;color:${MUTED}">${e(c.quote.label)}</p><div style="margin:0;padding:10px 14px;border-inline-start:4px solid ${accent};background:#f4f5f7;white-space:pre-line">${e(c.quote.text)}</div>`)]
      : []),
    ...(c.action ? [actionRows(c.action, locale, accent)] : []),
    ...(c.notes ?? []).map((n) => row(`padding:16px 32px 0 32px;font-size:13px;line-height:1.5;color:${MUTED}`, e(n))),
    row('height:24px;line-height:24px;font-size:0', '&nbsp;'),
    row(`padding:20px 32px 28px 32px;font-size:12px;line-height:1.5;color:${MUTED};border-top:1px solid ${LINE}`, e(c.footer)),
  ].join('');
  // Table layout and inline styles: what mail clients (Outlook included) render alike.
  return `<!doctype html>
<html lang="${locale}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${e(c.heading)}</title></head>
<body style="margin:0;padding:0;background:#f4f5f7;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:${INK}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7;padding:32px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" dir="${dir}" style="max-width:560px;background:#ffffff;border:1px solid ${LINE};border-radius:8px;text-align:${dir === 'rtl' ? 'right' : 'left'}">
${body}</table></td></tr></table>
</body></html>
`;
}

function actionRows(a: NonNullable<EmailContent['action']>, locale: Locale, accent: string): string {
  const url = escapeHtml(a.url);
  return `<tr><td style="padding:24px 32px"><table role="presentation" cellpadding="0" cellspacing="0"><tr><td style="border-radius:6px;background:${accent}">
<a href="${url}" style="display:inline-block;padding:12px 24px;font-size:15px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(a.label)}</a>
</td></tr></table></td></tr>
<tr><td style="padding:0 32px;font-size:13px;line-height:1.5;color:${MUTED}">${escapeHtml(t(locale, 'email.copy'))}<br><a href="${url}" dir="ltr" style="color:${accent};word-break:break-all">${url}</a></td></tr>
`;
}

/** "24 December 2026, 14:05 UTC": unambiguous for any reader, whatever their locale. */
export function formatWhen(iso: string): string {
  const d = new Date(iso);
  return `${DATE.format(d)}, ${TIME.format(d)} UTC`;
}

// Built once: constructing an Intl formatter costs more than composing the rest of the message.
const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const TIME = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Line breaks and control characters would break a header or fake a paragraph: collapsed to spaces. */
export function oneLine(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim();
}

export function clip(s: string, max: number): string {
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join('')}…`;
}
