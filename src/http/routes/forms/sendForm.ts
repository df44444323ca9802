import { sendForm } from '../../../domain/sending/send-form.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'sendForm',
  handler: (s) => async (req, reply, p) => sendJson(reply, await sendForm(s.domain, p, req.params.form_id, req.body)),
});
