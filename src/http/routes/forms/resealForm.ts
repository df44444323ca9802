import { resealForm } from '../../../domain/signing/reseal-form.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'resealForm',
  handler: (s) => async (req, reply, p) => sendJson(reply, await resealForm(s.domain, p, req.params.form_id)),
});
