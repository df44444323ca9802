export { createFormsignClient, type FormsignClient, type FormsignClientOptions } from './client.js';
export { verifyWebhook, WebhookVerificationError, type Event, type VerifyOptions } from './verify-webhook.js';
export type { components, paths, webhooks } from './generated/api.js';
