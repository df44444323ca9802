import { listTemplates } from '../../../domain/templates/read-templates.js';
import type { operations } from '../../../generated/api.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

type Query = NonNullable<operations['listTemplates']['parameters']['query']>;

export default defineRoute({
  operationId: 'listTemplates',
  handler: (s) => async (req, reply) => sendJson(reply, await listTemplates(s.domain, req.partition, req.query as Query)),
});
