import { retryWebhookDelivery } from '../../../domain/webhooks/retry-webhook-delivery.js';
import type { operations } from '../../../generated/api.js';
import { defineRoute } from '../route.js';

type Params = operations['retryWebhookDelivery']['parameters']['path'];

export default defineRoute({
  operationId: 'retryWebhookDelivery',
  handler: (s) => async (req, _reply, p) => {
    const { webhook_id, delivery_id } = req.params as Params;
    return retryWebhookDelivery(s.domain, p, webhook_id, delivery_id);
  },
});
