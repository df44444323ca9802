import { prepareCreateWebhook } from '../../../domain/webhooks/create-webhook.js';
import { valueAnswer } from '../../answer.js';
import { defineWriteRoute } from '../route.js';

export default defineWriteRoute({
  operationId: 'createWebhook',
  prepare: (s) => async (req, p) => prepareCreateWebhook(s.domain, p, req.body),
  answer: (webhook) => valueAnswer(201, webhook),
});
