import { remindForm } from '../../../domain/lifecycle/remind-recipients.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'remindForm',
  // The body is optional: none reminds every recipient who has not signed.
  handler: (s) => async (req, reply, p) => sendJson(reply, await remindForm(s.domain, p, req.params.form_id, { recipients: req.body?.recipients })),
});
