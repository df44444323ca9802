import { listWebhookDeliveries } from '../../../domain/webhooks/read-webhooks.js';
import type { operations } from '../../../generated/api.js';
import { defineRoute } from '../route.js';

type Params = operations['listWebhookDeliveries']['parameters']['path'];
type Query = NonNullable<operations['listWebhookDeliveries']['parameters']['query']>;

export default defineRoute({
  operationId: 'listWebhookDeliveries',
  handler: (s) => async (req, _reply, p) => listWebhookDeliveries(s.domain, p, (req.params as Params).webhook_id, req.query as Query),
});
