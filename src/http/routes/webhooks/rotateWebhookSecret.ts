import { rotateWebhookSecret } from '../../../domain/webhooks/rotate-webhook-secret.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'rotateWebhookSecret',
  handler: (s) => async (req, _reply, p) => rotateWebhookSecret(s.domain, p, req.params.webhook_id),
});
