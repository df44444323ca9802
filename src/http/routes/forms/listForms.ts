import { listForms } from '../../../domain/forms/read-forms.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'listForms',
  handler: (s) => async (req, reply, p) => sendJson(reply, await listForms(s.domain, p, req.query)),
});
