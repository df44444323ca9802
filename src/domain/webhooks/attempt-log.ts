import type { components } from '../../generated/api.js';

export type AttemptRecord = components['schemas']['WebhookDeliveryAttempt'];

/** The log keeps the latest attempts; the schedule makes ten, and retries from the API add to them. */
export const ATTEMPT_LOG_LIMIT = 20;

export function appendAttempt(logJson: string, record: AttemptRecord): string {
  const log = JSON.parse(logJson) as AttemptRecord[];
  log.push(record);
  return JSON.stringify(log.slice(-ATTEMPT_LOG_LIMIT));
}
