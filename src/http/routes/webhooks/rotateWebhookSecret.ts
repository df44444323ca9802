import { prepareRotateWebhookSecret } from '../../../domain/webhooks/rotate-webhook-secret.js';
import { valueAnswer } from '../../answer.js';
import { defineWriteRoute } from '../route.js';

export default defineWriteRoute({
  operationId: 'rotateWebhookSecret',
  prepare: (s) => async (req, p) => prepareRotateWebhookSecret(s.domain, p, req.params.webhook_id),
  answer: (webhook) => valueAnswer(200, webhook),
});
