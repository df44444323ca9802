import { createWebhook } from '../../../domain/webhooks/create-webhook.js';
import type { components } from '../../../generated/api.js';
import { defineRoute } from '../route.js';

type Body = components['schemas']['CreateWebhookRequest'];

export default defineRoute({
  operationId: 'createWebhook',
  handler: (s) => async (req, reply, p) => reply.code(201).send(await createWebhook(s.domain, p, req.body as Body)),
});
