import { startReceiver } from '../webhooks/support/receiver.js';
import { expectedSignature } from '../webhooks/support/webhooks.js';

// The cluster's webhook receiver: checks every request's Service-Signature against the secret (an
// independent HMAC, test/webhooks/support/webhooks.ts), and notes when a delivery of one event
// arrives while another delivery of the same event is still being answered (each answer takes a
// moment, so two workers running one delivery at once would overlap here).

const ANSWER_MS = 30;

export interface WebhookWitness {
  readonly url: string;
  /** Set once the webhook is made (its signing secret). */
  secret: string;
  /** Deliveries received per event id (valid signature or not). */
  readonly byEvent: Map<string, number>;
  /** Requests whose signature did not verify, or whose body was not an event. */
  readonly invalid: string[];
  /** Event ids delivered again while a delivery of them was still in flight. */
  readonly concurrent: string[];
  /** Arrival times (ms since epoch) of every request. */
  readonly arrivals: number[];
  close(): Promise<void>;
}

export async function startWebhookWitness(answerMs = ANSWER_MS): Promise<WebhookWitness> {
  const byEvent = new Map<string, number>();
  const inFlight = new Map<string, number>();
  const invalid: string[] = [];
  const concurrent: string[] = [];
  const arrivals: number[] = [];
  const witness = {
    url: '',
    secret: '',
    byEvent,
    invalid,
    concurrent,
    arrivals,
    close: async () => undefined,
  } as WebhookWitness;
  const receiver = await startReceiver(async (r) => {
    arrivals.push(r.at);
    let id = '';
    try {
      id = String((JSON.parse(r.raw.toString('utf8')) as { id?: unknown }).id ?? '');
    } catch {
      id = '';
    }
    const header = String(r.headers['service-signature'] ?? '');
    const m = /^t=(\d+)((?:,v1=[0-9a-f]{64})+)$/.exec(header);
    const valid = m !== null && id !== '' && m[2]!.split(',v1=').slice(1).includes(expectedSignature(witness.secret, Number(m[1]), r.raw));
    if (!valid) {
      invalid.push(`${id || '(no id)'}: ${header}`);
      return { status: 400 };
    }
    byEvent.set(id, (byEvent.get(id) ?? 0) + 1);
    if ((inFlight.get(id) ?? 0) > 0) concurrent.push(id);
    inFlight.set(id, (inFlight.get(id) ?? 0) + 1);
    if (answerMs > 0) await new Promise((resolve) => setTimeout(resolve, answerMs));
    inFlight.set(id, inFlight.get(id)! - 1);
    return { status: 200 };
  });
  Object.assign(witness, { url: receiver.url, close: receiver.close });
  return witness;
}
