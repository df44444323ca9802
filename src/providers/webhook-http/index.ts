export { forbiddenAddressReason } from './address-guard.js';
export { createWebhookSender, RESPONSE_EXCERPT_BYTES, systemResolver, type Resolver, type WebhookRequest, type WebhookResponse, type WebhookSender, type WebhookSenderOptions } from './post-webhook.js';
