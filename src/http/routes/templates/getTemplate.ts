import { getTemplate } from '../../../domain/templates/read-templates.js';
import type { operations } from '../../../generated/api.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

type Params = operations['getTemplate']['parameters']['path'];

export default defineRoute({
  operationId: 'getTemplate',
  handler: (s) => async (req, reply, p) => sendJson(reply, await getTemplate(s.domain, p, (req.params as Params).template_id)),
});
