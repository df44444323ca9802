import { deleteWebhook } from '../../../domain/webhooks/delete-webhook.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'deleteWebhook',
  handler: (s) => async (req, _reply, p) => deleteWebhook(s.domain, p, req.params.webhook_id),
});
