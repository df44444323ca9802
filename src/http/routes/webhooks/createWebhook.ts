import { createWebhook } from '../../../domain/webhooks/create-webhook.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'createWebhook',
  handler: (s) => async (req, reply, p) => reply.code(201).send(await createWebhook(s.domain, p, req.body)),
});
