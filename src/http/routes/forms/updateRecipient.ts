import { updateRecipient } from '../../../domain/lifecycle/reassign-recipient.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

// PATCH (not a POST): the correction commits in its own unit and answers the form, like updateTemplate.
export default defineRoute({
  operationId: 'updateRecipient',
  handler: (s) => async (req, reply, p) => sendJson(reply, await updateRecipient(s.domain, p, req.params.form_id, req.params.recipient_id, req.body)),
});
