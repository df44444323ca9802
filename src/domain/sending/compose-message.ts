import type { Channel } from '../../db/tables.js';
import { DEFAULT_LOCALE, directionOf, formatUtc, t, type Locale } from '../../lib/i18n/index.js';

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
}

/** E-mail: subject, text and html; SMS: text alone. */
export interface ComposedMessage {
  readonly channel: Channel;
  readonly subject?: string;
  readonly text: string;
  readonly html?: string;
}

/**
 * The message a recipient gets, composed once at send time and stored as sent (the messages table),
 * so what was delivered is on record. Pure: no clock, no I/O.
 *
 * An e-mail a person can trust: who asks and for what in the subject, a greeting by name, the link as
 * a button and written out (for clients that strip buttons), when it stops working, and why they got
 * it. Every value is escaped in the HTML part and kept to one line in the subject. An SMS is short:
 * who asks, the form, the link.
 */
export function composeMessage(m: MessageInput): ComposedMessage {
  const locale = m.locale ?? DEFAULT_LOCALE;
  const account = oneLine(m.accountName);
  const form = oneLine(m.formName);
  if (m.channel === 'sms') {
    return { channel: 'sms', text: t(locale, 'sms.invite', { account: clip(account, 40), form: clip(form, 60), url: m.signingUrl }) };
  }
  const name = m.recipientName ? oneLine(m.recipientName) : null;
  const expiry = m.expiresAt ? t(locale, 'email.expiry', { date: formatExpiry(m.expiresAt, locale) }) : null;
  const subject = clip(t(locale, 'email.subject', { account, form }), 200);
  const why = t(locale, 'email.why', { account, form, to: m.to });
  const hello = name ? t(locale, 'email.helloName', { name }) : t(locale, 'email.hello');
  const text = [
    hello,
    '',
    t(locale, 'email.asks', { account, form }),
    '',
    t(locale, 'email.openText', { url: m.signingUrl }),
    '',
    ...(expiry ? [expiry, ''] : []),
    why,
    '',
  ].join('\n');
  return { channel: 'email', subject, text, html: emailHtml(locale, { name, account, form, url: m.signingUrl, expiry, why }) };
}

function emailHtml(locale: Locale, v: { name: string | null; account: string; form: string; url: string; expiry: string | null; why: string }): string {
  const e = escapeHtml;
  const url = e(v.url);
  // Each value is escaped before it goes into its (escaped) sentence.
  const say = (key: Parameters<typeof t>[1], params: Record<string, string> = {}): string =>
    e(t(locale, key, Object.fromEntries(Object.keys(params).map((k) => [k, `\u0000${k}\u0000`])))).replace(/\u0000(\w+)\u0000/g, (_, k: string) => e(params[k]!));
  const dir = directionOf(locale);
  const align = dir === 'rtl' ? 'right' : 'left';
  // Table layout and inline styles: what mail clients (Outlook included) render alike.
  return `<!doctype html>
<html lang="${locale}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${e(v.form)}</title></head>
<body style="margin:0;padding:0;background:#f4f5f7;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1f2933">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7;padding:32px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" dir="${dir}" style="max-width:560px;background:#ffffff;border:1px solid #e4e7eb;border-radius:8px;text-align:${align}">
<tr><td style="padding:28px 32px 8px 32px;font-size:13px;color:#616e7c">${e(v.account)}</td></tr>
<tr><td style="padding:0 32px;font-size:22px;line-height:1.3;font-weight:600;color:#1f2933">${say('email.heading', { form: v.form })}</td></tr>
<tr><td style="padding:16px 32px 0 32px;font-size:15px;line-height:1.5">${v.name ? say('email.helloName', { name: v.name }) : say('email.hello')}</td></tr>
<tr><td style="padding:10px 32px 0 32px;font-size:15px;line-height:1.5">${say('email.asks', { account: v.account, form: v.form })}</td></tr>
<tr><td style="padding:24px 32px"><table role="presentation" cellpadding="0" cellspacing="0"><tr><td style="border-radius:6px;background:#1d4ed8">
<a href="${url}" style="display:inline-block;padding:12px 24px;font-size:15px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:6px">${say('email.button')}</a>
</td></tr></table></td></tr>
<tr><td style="padding:0 32px;font-size:13px;line-height:1.5;color:#616e7c">${say('email.copy')}<br><a href="${url}" dir="ltr" style="color:#1d4ed8;word-break:break-all">${url}</a></td></tr>
${v.expiry ? `<tr><td style="padding:16px 32px 0 32px;font-size:13px;line-height:1.5;color:#616e7c">${e(v.expiry)}</td></tr>\n` : ''}<tr><td style="height:24px;line-height:24px;font-size:0">&nbsp;</td></tr>
<tr><td style="padding:20px 32px 28px 32px;font-size:12px;line-height:1.5;color:#9aa5b1;border-top:1px solid #e4e7eb">${e(v.why)}</td></tr>
</table></td></tr></table>
</body></html>
`;
}

/** "24 December 2026, 14:05 UTC": unambiguous for any reader; in the reader's language when known. */
export function formatExpiry(iso: string, locale: Locale = DEFAULT_LOCALE): string {
  return formatUtc(locale, iso);
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Line breaks and control characters would break a header or fake a paragraph: collapsed to spaces. */
function oneLine(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim();
}

function clip(s: string, max: number): string {
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join('')}…`;
}
