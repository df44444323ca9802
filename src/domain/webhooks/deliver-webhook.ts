import { findEventById } from '../../db/repositories/event-publication.js';
import { findForm } from '../../db/repositories/forms.js';
import { cancelPendingDeliveries, findDeliveryToAttempt, recordAttempt, type AttemptTarget } from '../../db/repositories/webhook-deliveries.js';
import { noteWebhookFailing, noteWebhookHealthy, updateWebhook } from '../../db/repositories/webhooks.js';
import type { WebhookDeliveryRow } from '../../db/tables.js';
import type { Trx } from '../../db/handles.js';
import { isoNow } from '../../lib/clock.js';
import type { Partition } from '../../lib/partition.js';
import { enqueue } from '../../outbox/enqueue.js';
import type { JobContext, JobHandler, Outcome } from '../../outbox/job.js';
import { webhookDeliver } from '../../outbox/jobs/webhook-deliver.job.js';
import type { PayloadOf } from '../../outbox/registry.js';
import type { WebhookResponse } from '../../providers/webhook-http/index.js';
import type { DomainDeps } from '../context.js';
import { eventJson, removedFormFields } from '../forms/present-form.js';
import { formFields } from '../forms/read-forms.js';
import { appendAttempt } from './attempt-log.js';
import { EndpointSlots } from './endpoint-slots.js';
import { DISABLE_AFTER_FAILING_MS, MAX_ATTEMPTS, delayBeforeAttemptMs } from './retry-schedule.js';
import { signatureHeader } from './signature.js';

type DeliverDeps = Pick<DomainDeps, 'db' | 'clock' | 'templateCache' | 'links' | 'webhooks'>;
type Payload = PayloadOf<'webhook.deliver'>;

/** How long an attempt waits for its endpoint's slot before it is deferred. */
const SLOT_WAIT_MS = 200;

/**
 * One attempt of a delivery (the `webhook.deliver` job). Reads the delivery and its webhook; a
 * delivery already past this attempt (a stale or repeated job) is left alone, and one whose webhook is
 * gone or disabled is abandoned without a call. The body is rendered once, by the one form presenter,
 * and stored with the first attempt's outcome, so every attempt sends the same bytes; the signature
 * is made per attempt (its timestamp is the attempt's). The outcome commits with the job: the attempt
 * in the log, and the next attempt's job at the time the schedule gives, or the webhook disabled.
 */
export function webhookDeliveryHandler(deps: DeliverDeps): JobHandler<Payload> {
  const slots = new EndpointSlots(deps.webhooks.perEndpointConcurrency);
  return {
    async run(payload, ctx) {
      const p = ctx.partition;
      const found = await findDeliveryToAttempt(deps.db, p, payload.delivery_id);
      if (!found) return;
      const { delivery, webhook: hook } = found;
      if (delivery.status !== 'pending' || delivery.attempts !== payload.attempt - 1) return;
      if (!hook || hook.status !== 'enabled') {
        const now = isoNow(deps.clock);
        return (trx) => cancelPendingDeliveries(trx, p, delivery.webhook_id, now);
      }
      if (!(await slots.acquire(hook.id, SLOT_WAIT_MS))) return defer(payload, p, deps);
      let response: WebhookResponse;
      let body: string;
      const started = deps.clock.now();
      try {
        body = delivery.body ?? (await renderBody(deps, p, delivery.event_id));
        response = await deps.webhooks.sender.post({ url: hook.url, headers: headersFor(deps, hook, delivery, payload.attempt, body, started), body: Buffer.from(body), signal: ctx.signal });
      } finally {
        slots.release(hook.id);
      }
      return settle(deps, { p, hook, delivery, attempt: payload.attempt, body, response, started, ctx });
    },
  };
}

function defer(payload: Payload, p: Partition, deps: DeliverDeps): Outcome {
  const deferrals = (payload.deferrals ?? 0) + 1;
  // Doubling waits bound how often a backlog for one slow endpoint is looked at (1 s up to 30 s).
  const waitMs = Math.min(30_000, 500 * 2 ** Math.min(deferrals, 6)) * (0.75 + 0.5 * deps.webhooks.random());
  const now = deps.clock.now();
  return async (trx) => {
    await enqueue(trx, p, webhookDeliver, { ...payload, deferrals }, { now: now.toISOString(), runAt: new Date(now.getTime() + waitMs).toISOString() });
  };
}

async function renderBody(deps: DeliverDeps, p: Partition, eventId: string): Promise<string> {
  const event = await findEventById(deps.db, p, eventId);
  if (!event) throw new Error(`event ${eventId} of the delivery is missing`);
  const form = await findForm(deps.db, p, event.form_id);
  // A removed draft's events outlive its row (issue 40), emptied: they render with no fields.
  return eventJson(event, form ? await formFields(deps, p, form) : removedFormFields, deps.links).json;
}

function headersFor(deps: DeliverDeps, hook: AttemptTarget, d: WebhookDeliveryRow, attempt: number, body: string, at: Date): Record<string, string> {
  const secrets = [hook.secret];
  if (hook.previous_secret && hook.previous_secret_until && hook.previous_secret_until > at.toISOString()) secrets.push(hook.previous_secret);
  return {
    'content-type': 'application/json',
    'user-agent': deps.webhooks.userAgent,
    'service-signature': signatureHeader(Buffer.from(body), secrets, Math.floor(at.getTime() / 1000)),
    'service-event-type': d.event_type,
    'service-event-id': d.event_id,
    'service-delivery-attempt': String(attempt),
  };
}

interface Attempt {
  p: Partition;
  hook: AttemptTarget;
  delivery: WebhookDeliveryRow;
  attempt: number;
  body: string;
  response: WebhookResponse;
  started: Date;
  ctx: JobContext;
}

/**
 * What the attempt comes to, written in the transaction that settles the job: the usual case — a 2xx
 * from a webhook that was not failing — is one fenced update of the delivery; every other outcome
 * decides on what it reads and writes.
 */
function settle(deps: DeliverDeps, a: Attempt): Outcome {
  const { p, hook, response: r } = a;
  // The attempt's outcome is dated when its response came, not when it is written.
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const statusCode = r.ok ? r.status : null;
  const succeeded = r.ok && r.status >= 200 && r.status < 300;
  const error = r.ok ? (succeeded ? null : describeStatus(r.status)) : r.error;
  const log = appendAttempt(a.delivery.attempt_log, {
    attempt: a.attempt,
    attempted_at: a.started.toISOString(),
    status_code: statusCode,
    duration_ms: r.durationMs,
    error,
    response_body: r.ok ? r.body : null,
  });
  const outcome = (status: 'pending' | 'succeeded' | 'failed', next: string | null) => ({ status, attempts: a.attempt, last_status_code: statusCode, next_attempt_at: next, body: a.body, attempt_log: log, updated_at: nowIso });

  return async (trx: Trx) => {
    const record = (status: 'pending' | 'succeeded' | 'failed', next: string | null) => recordAttempt(trx, p, a.delivery.id, outcome(status, next));
    if (succeeded) {
      if ((await record('succeeded', null)) && hook.failing_since) await noteWebhookHealthy(trx, p, hook.id);
      return;
    }
    const gone = r.ok && r.status === 410;
    const failingSince = gone ? nowIso : await noteWebhookFailing(trx, p, hook.id, a.started.toISOString());
    const failingTooLong = failingSince !== undefined && now.getTime() - Date.parse(failingSince) >= DISABLE_AFTER_FAILING_MS * deps.webhooks.retryScale;
    if (gone || failingTooLong) {
      if (!(await record('failed', null))) return;
      await updateWebhook(trx, p, hook.id, { status: 'disabled', disabled_reason: gone ? 'gone' : 'failing', updated_at: nowIso });
      await cancelPendingDeliveries(trx, p, hook.id, nowIso);
      return;
    }
    if (a.attempt >= MAX_ATTEMPTS) {
      await record('failed', null);
      return;
    }
    const retryAfter = r.ok && (r.status === 429 || r.status === 503) ? r.retryAfter : undefined;
    const next = new Date(now.getTime() + delayBeforeAttemptMs(a.attempt + 1, { scale: deps.webhooks.retryScale, random: deps.webhooks.random, retryAfter, now: now.getTime() })).toISOString();
    if (!(await record('pending', next))) return;
    await enqueue(trx, p, webhookDeliver, { delivery_id: a.delivery.id, attempt: a.attempt + 1 }, { now: nowIso, runAt: next });
  };
}

function describeStatus(status: number): string {
  if (status >= 300 && status < 400) return `The receiver answered ${status} (a redirect, which is not followed).`;
  if (status === 410) return 'The receiver answered 410 Gone; the webhook is disabled.';
  return `The receiver answered ${status}.`;
}
