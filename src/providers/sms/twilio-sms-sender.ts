import { SmsGatewayError, type OutgoingSms, type SmsSender } from './sms-sender.js';

export interface TwilioOptions {
  /** `https://api.twilio.com`, or any gateway speaking the same Messages API. */
  readonly baseUrl: string;
  readonly accountSid: string;
  readonly authToken: string;
  /** A sender number (E.164), an alphanumeric sender id, or a Messaging Service sid (`MG…`). */
  readonly from: string;
  readonly timeoutMs?: number;
}

/**
 * Twilio's Messages API: a form-encoded POST to `/2010-04-01/Accounts/{sid}/Messages.json` with basic
 * auth (sid:token). A 2xx carrying a `sid` is a message accepted; anything else is a failure that keeps
 * Twilio's error code and message, so the operator sees why (21211: invalid number, 20003: bad auth…).
 */
export function createTwilioSmsSender(o: TwilioOptions): SmsSender {
  const endpoint = `${o.baseUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(o.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${o.accountSid}:${o.authToken}`).toString('base64')}`;
  const fromField = /^MG[0-9a-f]{32}$/i.test(o.from) ? 'MessagingServiceSid' : 'From';
  return {
    transport: 'sms',
    async send(m: OutgoingSms, signal: AbortSignal) {
      const body = new URLSearchParams({ To: m.to, [fromField]: o.from, Body: m.body });
      let res: Response;
      try {
        res = await fetch(endpoint, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body,
          signal: AbortSignal.any([signal, AbortSignal.timeout(o.timeoutMs ?? 15_000)]),
        });
      } catch (error) {
        throw new SmsGatewayError(`The SMS gateway could not be reached: ${error instanceof Error ? error.message : String(error)}`, undefined, undefined);
      }
      const text = await res.text();
      const json = parseObject(text);
      if (res.ok && typeof json?.['sid'] === 'string') return { providerMessageId: json['sid'] };
      const code = json?.['code'] !== undefined && json['code'] !== null ? String(json['code']) : undefined;
      const detail = typeof json?.['message'] === 'string' ? json['message'] : text.slice(0, 200) || res.statusText;
      const what = res.ok ? 'The SMS gateway answered without a message sid' : `The SMS gateway refused the message (HTTP ${res.status}${code ? `, error ${code}` : ''})`;
      throw new SmsGatewayError(`${what}: ${detail}`, res.status, code);
    },
  };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
