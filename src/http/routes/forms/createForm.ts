import { prepareCreateForm } from '../../../domain/forms/create-form.js';
import { jsonAnswer } from '../../answer.js';
import { unmatchedHeader } from '../../prefill-header.js';
import { defineWriteRoute } from '../route.js';

export default defineWriteRoute({
  operationId: 'createForm',
  prepare: (s) => async (req, p) => prepareCreateForm(s.domain, p, req.body),
  answer: ({ form, unmatched }) => jsonAnswer(201, form, { 'X-Service-Prefill-Unmatched': unmatchedHeader(unmatched) }),
});
