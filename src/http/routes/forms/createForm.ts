import { createForm } from '../../../domain/forms/create-form.js';
import { unmatchedHeader } from '../../prefill-header.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'createForm',
  handler: (s) => async (req, reply, p) => {
    const { form, unmatched } = await createForm(s.domain, p, req.body);
    const header = unmatchedHeader(unmatched);
    if (header !== undefined) reply.header('X-Service-Prefill-Unmatched', header);
    return sendJson(reply, form, 201);
  },
});
