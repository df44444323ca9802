import { prepareSendTestEvent } from '../../../domain/webhooks/send-test-event.js';
import { valueAnswer } from '../../answer.js';
import { defineWriteRoute } from '../route.js';

export default defineWriteRoute({
  operationId: 'sendWebhookTestEvent',
  prepare: (s) => async (req, p) => prepareSendTestEvent(s.domain, p, req.params.webhook_id),
  answer: (delivery) => valueAnswer(200, delivery),
});
