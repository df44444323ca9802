import { retryWebhookDelivery } from '../../../domain/webhooks/retry-webhook-delivery.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'retryWebhookDelivery',
  handler: (s) => async (req, _reply, p) => {
    const { webhook_id, delivery_id } = req.params;
    return retryWebhookDelivery(s.domain, p, webhook_id, delivery_id);
  },
});
