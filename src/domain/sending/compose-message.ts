import type { Channel } from '../../db/tables.js';

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
  const account = oneLine(m.accountName);
  const form = oneLine(m.formName);
  if (m.channel === 'sms') {
    return { channel: 'sms', text: `${clip(account, 40)} asks you to sign "${clip(form, 60)}": ${m.signingUrl}` };
  }
  const name = m.recipientName ? oneLine(m.recipientName) : null;
  const expiry = m.expiresAt ? `This link works until ${formatExpiry(m.expiresAt)}.` : null;
  const subject = clip(`${account} asks you to sign "${form}"`, 200);
  const why = `You received this e-mail because ${account} sent "${form}" to ${m.to} through Formsign. If you were not expecting it, you can ignore it.`;
  const text = [
    name ? `Hello ${name},` : 'Hello,',
    '',
    `${account} asks you to review and sign "${form}".`,
    '',
    `Open the form: ${m.signingUrl}`,
    '',
    ...(expiry ? [expiry, ''] : []),
    why,
    '',
  ].join('\n');
  return { channel: 'email', subject, text, html: emailHtml({ name, account, form, url: m.signingUrl, expiry, why }) };
}

function emailHtml(v: { name: string | null; account: string; form: string; url: string; expiry: string | null; why: string }): string {
  const e = escapeHtml;
  const url = e(v.url);
  // Table layout and inline styles: what mail clients (Outlook included) render alike.
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${e(v.form)}</title></head>
<body style="margin:0;padding:0;background:#f4f5f7;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1f2933">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7;padding:32px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border:1px solid #e4e7eb;border-radius:8px">
<tr><td style="padding:28px 32px 8px 32px;font-size:13px;color:#616e7c">${e(v.account)}</td></tr>
<tr><td style="padding:0 32px;font-size:22px;line-height:1.3;font-weight:600;color:#1f2933">Please sign &ldquo;${e(v.form)}&rdquo;</td></tr>
<tr><td style="padding:16px 32px 0 32px;font-size:15px;line-height:1.5">${v.name ? `Hello ${e(v.name)},` : 'Hello,'}</td></tr>
<tr><td style="padding:10px 32px 0 32px;font-size:15px;line-height:1.5">${e(v.account)} asks you to review and sign &ldquo;${e(v.form)}&rdquo;.</td></tr>
<tr><td style="padding:24px 32px"><table role="presentation" cellpadding="0" cellspacing="0"><tr><td style="border-radius:6px;background:#1d4ed8">
<a href="${url}" style="display:inline-block;padding:12px 24px;font-size:15px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:6px">Review and sign</a>
</td></tr></table></td></tr>
<tr><td style="padding:0 32px;font-size:13px;line-height:1.5;color:#616e7c">Or copy this address into your browser:<br><a href="${url}" style="color:#1d4ed8;word-break:break-all">${url}</a></td></tr>
${v.expiry ? `<tr><td style="padding:16px 32px 0 32px;font-size:13px;line-height:1.5;color:#616e7c">${e(v.expiry)}</td></tr>\n` : ''}<tr><td style="height:24px;line-height:24px;font-size:0">&nbsp;</td></tr>
<tr><td style="padding:20px 32px 28px 32px;font-size:12px;line-height:1.5;color:#9aa5b1;border-top:1px solid #e4e7eb">${e(v.why)}</td></tr>
</table></td></tr></table>
</body></html>
`;
}

/** "24 December 2026, 14:05 UTC": unambiguous for any reader, whatever their locale. */
export function formatExpiry(iso: string): string {
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
function oneLine(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim();
}

function clip(s: string, max: number): string {
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join('')}…`;
}

// --- After sending (issue #23): the reminder and the void notice, in the invite's style. ---

/** A reminder: the invite's facts again, said as a reminder, with the same link. */
export function composeReminder(m: MessageInput): ComposedMessage {
  const account = oneLine(m.accountName);
  const form = oneLine(m.formName);
  if (m.channel === 'sms') return { channel: 'sms', text: `Reminder: ${clip(account, 40)} asks you to sign "${clip(form, 60)}": ${m.signingUrl}` };
  const invite = composeMessage(m);
  const lead = `${account} asks you to review and sign "${form}".`;
  const reminder = `A reminder: ${account} is still waiting for you to review and sign "${form}".`;
  return {
    channel: 'email',
    subject: clip(`Reminder: ${account} asks you to sign "${form}"`, 200),
    text: invite.text.replace(lead, reminder),
    html: invite.html!.replace(`${escapeHtml(account)} asks you to review and sign &ldquo;${escapeHtml(form)}&rdquo;.`, escapeHtml(reminder).replace(/&quot;/g, '"')),
  };
}

export interface VoidNoticeInput {
  readonly channel: Channel;
  readonly to: string;
  readonly recipientName: string | null;
  readonly formName: string;
  readonly accountName: string;
  readonly reason: string | null;
}

/** The sender withdrew the form: a short notice that the link no longer works, with the reason if given. */
export function composeVoidNotice(m: VoidNoticeInput): ComposedMessage {
  const account = oneLine(m.accountName);
  const form = oneLine(m.formName);
  const reason = m.reason ? oneLine(m.reason) : null;
  if (m.channel === 'sms') return { channel: 'sms', text: `${clip(account, 40)} withdrew "${clip(form, 60)}": there is nothing to sign any more.` };
  const name = m.recipientName ? oneLine(m.recipientName) : null;
  const said = `${account} withdrew the request to sign "${form}". The signing link no longer works and there is nothing more to do.`;
  const why = `You received this e-mail because ${account} had sent "${form}" to ${m.to} through Formsign.`;
  const text = [name ? `Hello ${name},` : 'Hello,', '', said, '', ...(reason ? [`Reason given: ${reason}`, ''] : []), why, ''].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${e(form)}</title></head>
<body style="margin:0;padding:0;background:#f4f5f7;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1f2933">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7;padding:32px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border:1px solid #e4e7eb;border-radius:8px">
<tr><td style="padding:28px 32px 8px 32px;font-size:13px;color:#616e7c">${e(account)}</td></tr>
<tr><td style="padding:0 32px;font-size:22px;line-height:1.3;font-weight:600;color:#1f2933">&ldquo;${e(form)}&rdquo; was withdrawn</td></tr>
<tr><td style="padding:16px 32px 0 32px;font-size:15px;line-height:1.5">${name ? `Hello ${e(name)},` : 'Hello,'}</td></tr>
<tr><td style="padding:10px 32px 0 32px;font-size:15px;line-height:1.5">${e(said)}</td></tr>
${reason ? `<tr><td style="padding:10px 32px 0 32px;font-size:15px;line-height:1.5">Reason given: ${e(reason)}</td></tr>\n` : ''}<tr><td style="height:24px;line-height:24px;font-size:0">&nbsp;</td></tr>
<tr><td style="padding:20px 32px 28px 32px;font-size:12px;line-height:1.5;color:#616e7c;border-top:1px solid #e4e7eb">${e(why)}</td></tr>
</table></td></tr></table>
</body></html>
`;
  return { channel: 'email', subject: clip(`Withdrawn: "${form}" from ${account}`, 200), text, html };
}
