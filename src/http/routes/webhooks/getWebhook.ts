import { getWebhook } from '../../../domain/webhooks/read-webhooks.js';
import type { operations } from '../../../generated/api.js';
import { defineRoute } from '../route.js';

type Params = operations['getWebhook']['parameters']['path'];

export default defineRoute({
  operationId: 'getWebhook',
  handler: (s) => async (req, _reply, p) => getWebhook(s.domain, p, (req.params as Params).webhook_id),
});
