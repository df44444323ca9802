import { prepareRetryWebhookDelivery } from '../../../domain/webhooks/retry-webhook-delivery.js';
import { valueAnswer } from '../../answer.js';
import { defineWriteRoute } from '../route.js';

export default defineWriteRoute({
  operationId: 'retryWebhookDelivery',
  prepare: (s) => async (req, p) => prepareRetryWebhookDelivery(s.domain, p, req.params.webhook_id, req.params.delivery_id),
  answer: (delivery) => valueAnswer(200, delivery),
});
