import { updateWebhook } from '../../../domain/webhooks/update-webhook.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'updateWebhook',
  handler: (s) => async (req, _reply, p) => updateWebhook(s.domain, p, req.params.webhook_id, req.body),
});
