import { prepareCreateWebhook } from '../../../domain/webhooks/create-webhook.js';
import { loggedWrite } from '../../../domain/activity/record-activity.js';
import { valueAnswer } from '../../answer.js';
import { defineWriteRoute } from '../route.js';
import { apiWebhookActivity } from './logged.js';

export default defineWriteRoute({
  operationId: 'createWebhook',
  prepare: (s) => async (req, p) => loggedWrite(s.domain, prepareCreateWebhook(s.domain, p, req.body), (hook) => apiWebhookActivity(req, p, 'webhook.created', hook)),
  answer: (webhook) => valueAnswer(201, webhook),
});
