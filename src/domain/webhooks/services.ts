import type { WebhookSender } from '../../providers/webhook-http/index.js';

/** What the webhook use cases receive from the composition root. */
export interface WebhookServices {
  /** Makes the HTTP exchange; refuses forbidden addresses where it connects (providers/webhook-http). */
  readonly sender: WebhookSender;
  /** WEBHOOK_RETRY_SCALE: multiplies the retry schedule and the three-day disabling window. */
  readonly retryScale: number;
  /** Attempts running at once to one webhook in one worker process. */
  readonly perEndpointConcurrency: number;
  /** `Formsign-Webhooks/<version>`. */
  readonly userAgent: string;
  /** Jitter source (tests may fix it). */
  readonly random: () => number;
}
