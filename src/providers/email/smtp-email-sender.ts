import type Nodemailer from 'nodemailer';
import { loadOnFirstUse } from '../../lib/load-on-first-use.js';
import type { EmailSender, OutgoingEmail } from './email-sender.js';

export interface SmtpOptions {
  /** `smtp://[user:pass@]host[:port]` (STARTTLS when the server offers it) or `smtps://…` (TLS from the first byte). */
  readonly url: string;
  /** `Name <address>` or a bare address. */
  readonly from: string;
  /** Connections kept open to the server; the worker's concurrency is a good value. */
  readonly maxConnections?: number;
}

const nodemailer = loadOnFirstUse<typeof Nodemailer>('nodemailer');

/** nodemailer's SMTP options from our URL: auth in the URL is percent-decoded, the port follows the scheme. */
export function smtpTransportOptions(url: string, maxConnections: number) {
  const u = new URL(url);
  const secure = u.protocol === 'smtps:';
  return {
    pool: true as const,
    maxConnections,
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    ...(u.username ? { auth: { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } } : {}),
    // Bounded so a silent server fails the attempt (and the job retries) well inside the job's timeout.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  };
}

/** The address of MAIL_FROM (`Name <address>` or a bare address), for a From with another display name. */
export function senderAddress(from: string): string {
  return (/<([^<>\s]+)>\s*$/.exec(from)?.[1] ?? from).trim();
}

/** The domain part of the sender's address, for Message-IDs. */
function senderDomain(from: string): string {
  return /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'formsign.invalid';
}

export function createSmtpEmailSender(o: SmtpOptions): EmailSender {
  const transport = nodemailer().createTransport(smtpTransportOptions(o.url, o.maxConnections ?? 8));
  const domain = senderDomain(o.from);
  const address = senderAddress(o.from);
  return {
    transport: 'smtp',
    async send(m: OutgoingEmail) {
      const messageId = `<${m.id}@${domain}>`;
      try {
        await transport.sendMail({
          // An address object: nodemailer quotes and encodes the display name, whatever the account's name holds.
          from: m.fromName ? { name: m.fromName, address } : o.from,
          to: m.to,
          ...(m.replyTo ? { replyTo: m.replyTo } : {}),
          subject: m.subject,
          text: m.text,
          html: m.html,
          messageId,
          attachments: (m.attachments ?? []).map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content.buffer, a.content.byteOffset, a.content.byteLength) })),
        });
      } catch (error) {
        throw new Error(describeSmtpError(error));
      }
      return { providerMessageId: messageId };
    },
    close: () => transport.close(),
  };
}

/** A sentence for the operator and the API client: the server's own reply when it gave one. */
export function describeSmtpError(error: unknown): string {
  const e = error as { message?: string; code?: string; responseCode?: number; response?: string };
  if (typeof e.responseCode === 'number') return `The mail server refused the message: ${(e.response ?? String(e.responseCode)).trim()}`;
  if (e.code === 'ECONNECTION' || e.code === 'ETIMEDOUT' || e.code === 'ESOCKET' || e.code === 'EDNS') {
    return `The mail server could not be reached: ${e.message ?? e.code}`;
  }
  return `Sending the e-mail failed: ${e.message ?? String(error)}`;
}
