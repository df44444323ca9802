import { listWebhooks } from '../../../domain/webhooks/read-webhooks.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'listWebhooks',
  handler: (s) => async (req, _reply, p) => listWebhooks(s.domain, p, req.query),
});
