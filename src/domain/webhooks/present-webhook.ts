import type { WebhookDeliveryRow, WebhookRow } from '../../db/tables.js';
import type { components } from '../../generated/api.js';
import type { AttemptRecord } from './attempt-log.js';

export type WebhookView = components['schemas']['Webhook'];
export type WebhookWithSecretView = components['schemas']['WebhookWithSecret'];
export type WebhookDeliveryView = components['schemas']['WebhookDelivery'];
export type WebhookEventType = WebhookView['events'][number];

export function presentWebhook(row: WebhookRow): WebhookView {
  return {
    object: 'webhook',
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEventType[],
    status: row.status,
    mode: row.mode,
    description: row.description,
    created_at: row.created_at,
  };
}

/** Only createWebhook and rotateWebhookSecret answer with the secret. */
export function presentWebhookWithSecret(row: WebhookRow): WebhookWithSecretView {
  return { ...presentWebhook(row), signing_secret: row.secret };
}

export function presentDelivery(row: WebhookDeliveryRow): WebhookDeliveryView {
  return {
    object: 'webhook_delivery',
    id: row.id,
    webhook_id: row.webhook_id,
    event_id: row.event_id,
    event_type: row.event_type as WebhookDeliveryView['event_type'],
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.last_status_code,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    attempt_log: JSON.parse(row.attempt_log) as AttemptRecord[],
    mode: row.mode,
    created_at: row.created_at,
  };
}
