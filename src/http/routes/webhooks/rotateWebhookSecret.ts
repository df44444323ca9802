import { prepareRotateWebhookSecret } from '../../../domain/webhooks/rotate-webhook-secret.js';
import { loggedWrite } from '../../../domain/activity/record-activity.js';
import { valueAnswer } from '../../answer.js';
import { defineWriteRoute } from '../route.js';
import { apiWebhookActivity } from './logged.js';

export default defineWriteRoute({
  operationId: 'rotateWebhookSecret',
  prepare: (s) => async (req, p) => loggedWrite(s.domain, prepareRotateWebhookSecret(s.domain, p, req.params.webhook_id), (hook) => apiWebhookActivity(req, p, 'webhook.rotated', hook)),
  answer: (webhook) => valueAnswer(200, webhook),
});
