import { generateForm } from '../../../domain/generate/generate-form.js';
import { unmatchedHeader } from '../../prefill-header.js';
import { sendJson } from '../../reply-json.js';
import { clientGoneSignal } from '../client-gone.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'generateForm',
  handler: (s) => async (req, reply, p) => {
    // A client that goes away drops its queued PDF work and its model call.
    const { form, unmatched } = await generateForm(s.domain, p, req.body, clientGoneSignal(reply));
    const header = unmatchedHeader(unmatched);
    if (header !== undefined) reply.header('X-Service-Prefill-Unmatched', header);
    return sendJson(reply, form, 201);
  },
});
