import { voidForm } from '../../../domain/lifecycle/void-form.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'voidForm',
  // The body is optional: a void without a reason.
  handler: (s) => async (req, reply, p) => sendJson(reply, await voidForm(s.domain, p, req.params.form_id, { reason: req.body?.reason })),
});
