import { updateWebhook } from '../../../domain/webhooks/update-webhook.js';
import type { components, operations } from '../../../generated/api.js';
import { defineRoute } from '../route.js';

type Params = operations['updateWebhook']['parameters']['path'];
type Body = components['schemas']['UpdateWebhookRequest'];

export default defineRoute({
  operationId: 'updateWebhook',
  handler: (s) => async (req, _reply, p) => updateWebhook(s.domain, p, (req.params as Params).webhook_id, req.body as Body),
});
