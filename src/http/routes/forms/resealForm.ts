import { prepareResealForm } from '../../../domain/signing/reseal-form.js';
import { jsonAnswer } from '../../answer.js';
import { defineWriteRoute } from '../route.js';

export default defineWriteRoute({
  operationId: 'resealForm',
  prepare: (s) => async (req, p) => prepareResealForm(s.domain, p, req.params.form_id),
  answer: (form) => jsonAnswer(200, form),
});
