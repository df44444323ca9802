import { rotateWebhookSecret } from '../../../domain/webhooks/rotate-webhook-secret.js';
import type { operations } from '../../../generated/api.js';
import { defineRoute } from '../route.js';

type Params = operations['rotateWebhookSecret']['parameters']['path'];

export default defineRoute({
  operationId: 'rotateWebhookSecret',
  handler: (s) => async (req, _reply, p) => rotateWebhookSecret(s.domain, p, (req.params as Params).webhook_id),
});
