import { listWebhooks } from '../../../domain/webhooks/read-webhooks.js';
import type { operations } from '../../../generated/api.js';
import { defineRoute } from '../route.js';

type Query = NonNullable<operations['listWebhooks']['parameters']['query']>;

export default defineRoute({
  operationId: 'listWebhooks',
  handler: (s) => async (req, _reply, p) => listWebhooks(s.domain, p, req.query as Query),
});
