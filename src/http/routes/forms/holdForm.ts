import { prepareHoldForm } from '../../../domain/forms/legal-hold.js';
import { jsonAnswer } from '../../answer.js';
import { defineWriteRoute } from '../route.js';

export default defineWriteRoute({
  operationId: 'holdForm',
  prepare: (s) => async (req, p) => prepareHoldForm(s.domain, p, req.params.form_id, { reason: req.body.reason, by: req.apiKeyId ?? 'api' }),
  answer: (form) => jsonAnswer(200, form),
});
