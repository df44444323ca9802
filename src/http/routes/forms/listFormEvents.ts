import { listFormEvents } from '../../../domain/forms/read-forms.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'listFormEvents',
  handler: (s) => async (req, reply, p) => sendJson(reply, await listFormEvents(s.domain, p, req.params.form_id, req.query)),
});
