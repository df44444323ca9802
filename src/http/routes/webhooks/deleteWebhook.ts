import { deleteWebhook } from '../../../domain/webhooks/delete-webhook.js';
import type { operations } from '../../../generated/api.js';
import { defineRoute } from '../route.js';

type Params = operations['deleteWebhook']['parameters']['path'];

export default defineRoute({
  operationId: 'deleteWebhook',
  handler: (s) => async (req, _reply, p) => deleteWebhook(s.domain, p, (req.params as Params).webhook_id),
});
