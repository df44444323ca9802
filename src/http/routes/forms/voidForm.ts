import { prepareVoidForm } from '../../../domain/lifecycle/void-form.js';
import { jsonAnswer } from '../../answer.js';
import { defineWriteRoute } from '../route.js';

export default defineWriteRoute({
  operationId: 'voidForm',
  // The body is optional: a void without a reason.
  prepare: (s) => async (req, p) => prepareVoidForm(s.domain, p, req.params.form_id, { reason: req.body?.reason }),
  answer: (form) => jsonAnswer(200, form),
});
