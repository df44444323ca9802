export interface OutgoingEmail {
  /** Our message id (`msg_…`); it becomes the Message-ID header, so receivers can drop a resent copy. */
  readonly id: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** The display name before MAIL_FROM's address (`Acme via Formsign`); absent: MAIL_FROM as configured. */
  readonly fromName?: string;
  /** Where replies go (the account's notify_email). */
  readonly replyTo?: string;
  readonly attachments?: readonly EmailAttachment[];
}

export interface EmailAttachment {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Uint8Array;
}

export interface SentEmail {
  /** The Message-ID as sent, or null when nothing left this process (dev outbox). */
  readonly providerMessageId: string | null;
}

export interface EmailSender {
  /** 'smtp', or 'dev': the message stays in the messages table, which is the dev outbox. */
  readonly transport: 'smtp' | 'dev';
  send(message: OutgoingEmail, signal: AbortSignal): Promise<SentEmail>;
  close(): void;
}

/** No SMTP server configured: the composed message, already stored, is the delivery. */
export const devEmailSender: EmailSender = {
  transport: 'dev',
  send: async () => ({ providerMessageId: null }),
  close: () => undefined,
};
