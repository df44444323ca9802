import { prepareRemindForm } from '../../../domain/lifecycle/remind-recipients.js';
import { jsonAnswer } from '../../answer.js';
import { defineWriteRoute } from '../route.js';

export default defineWriteRoute({
  operationId: 'remindForm',
  // The body is optional: none reminds every recipient who has not signed.
  prepare: (s) => async (req, p) => prepareRemindForm(s.domain, p, req.params.form_id, { recipients: req.body?.recipients }),
  answer: (form) => jsonAnswer(200, form),
});
