import { listWebhookDeliveries } from '../../../domain/webhooks/read-webhooks.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'listWebhookDeliveries',
  handler: (s) => async (req, _reply, p) => listWebhookDeliveries(s.domain, p, req.params.webhook_id, req.query),
});
