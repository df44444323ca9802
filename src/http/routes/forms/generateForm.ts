import { prepareGenerateForm } from '../../../domain/generate/generate-form.js';
import { jsonAnswer } from '../../answer.js';
import { unmatchedHeader } from '../../prefill-header.js';
import { clientGoneSignal } from '../client-gone.js';
import { defineWriteRoute } from '../route.js';

export default defineWriteRoute({
  operationId: 'generateForm',
  // A client that goes away drops its queued PDF work and its model call.
  prepare: (s) => async (req, p, reply) => prepareGenerateForm(s.domain, p, req.body, clientGoneSignal(reply)),
  answer: ({ form, unmatched }) => jsonAnswer(201, form, { 'X-Service-Prefill-Unmatched': unmatchedHeader(unmatched) }),
});
