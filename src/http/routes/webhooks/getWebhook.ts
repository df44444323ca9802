import { getWebhook } from '../../../domain/webhooks/read-webhooks.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'getWebhook',
  handler: (s) => async (req, _reply, p) => getWebhook(s.domain, p, req.params.webhook_id),
});
