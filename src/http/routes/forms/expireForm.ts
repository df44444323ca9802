import { AppError } from '../../../domain/errors.js';
import { prepareExpireForm } from '../../../domain/forms/expire-form-now.js';
import { jsonAnswer } from '../../answer.js';
import { defineWriteRoute } from '../route.js';

export default defineWriteRoute({
  operationId: 'expireForm',
  prepare: (s) => async (req, p) => {
    // A test helper: in live mode the operation does not exist (not found, never forbidden).
    if (p.mode !== 'test') throw new AppError('route_not_found', 'POST /api/v1/forms/{form_id}/expire exists in test mode only: call it with a test key (fk_test_…). The operator can expire any form with `formsign forms expire ID`.');
    return prepareExpireForm(s.domain, p, req.params.form_id);
  },
  answer: (form) => jsonAnswer(200, form),
});
