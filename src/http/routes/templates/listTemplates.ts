import { listTemplates } from '../../../domain/templates/read-templates.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'listTemplates',
  handler: (s) => async (req, reply, p) => sendJson(reply, await listTemplates(s.domain, p, req.query)),
});
