import { getForm } from '../../../domain/forms/read-forms.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'getForm',
  handler: (s) => async (req, reply, p) => sendJson(reply, await getForm(s.domain, p, req.params.form_id)),
});
