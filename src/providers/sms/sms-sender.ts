export interface OutgoingSms {
  /** E.164. */
  readonly to: string;
  readonly body: string;
}

export interface SentSms {
  /** The gateway's message id (Twilio's `SM…` sid), or null for the dev outbox. */
  readonly providerMessageId: string | null;
}

export interface SmsSender {
  /** 'sms' (a gateway), or 'dev': the message stays in the messages table, which is the dev outbox. */
  readonly transport: 'sms' | 'dev';
  send(message: OutgoingSms, signal: AbortSignal): Promise<SentSms>;
}

export const devSmsSender: SmsSender = { transport: 'dev', send: async () => ({ providerMessageId: null }) };

/** The gateway answered with an error; `code` is the gateway's own (Twilio's error code) when it gave one. */
export class SmsGatewayError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'SmsGatewayError';
  }
}
