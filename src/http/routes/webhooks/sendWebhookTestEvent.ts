import { sendTestEvent } from '../../../domain/webhooks/send-test-event.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'sendWebhookTestEvent',
  handler: (s) => async (req, _reply, p) => sendTestEvent(s.domain, p, req.params.webhook_id),
});
