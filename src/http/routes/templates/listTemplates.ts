import { listTemplates } from '../../../domain/templates/read-templates.js';
import type { operations } from '../../../generated/api.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

type Query = NonNullable<operations['listTemplates']['parameters']['query']>;

export default defineRoute({
  operationId: 'listTemplates',
  handler: (s) => async (req, reply, p) => sendJson(reply, await listTemplates(s.domain, p, req.query as Query)),
});
