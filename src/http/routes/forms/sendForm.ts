import { prepareSendForm } from '../../../domain/sending/send-form.js';
import { jsonAnswer } from '../../answer.js';
import { defineWriteRoute } from '../route.js';

export default defineWriteRoute({
  operationId: 'sendForm',
  prepare: (s) => async (req, p) => prepareSendForm(s.domain, p, req.params.form_id, req.body),
  answer: (form) => jsonAnswer(200, form),
});
