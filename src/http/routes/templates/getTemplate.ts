import { getTemplate } from '../../../domain/templates/read-templates.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'getTemplate',
  handler: (s) => async (req, reply, p) => sendJson(reply, await getTemplate(s.domain, p, req.params.template_id)),
});
