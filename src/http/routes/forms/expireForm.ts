import { AppError } from '../../../domain/errors.js';
import { expireFormAtOnce } from '../../../domain/forms/expire-form-now.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'expireForm',
  handler: (s) => async (req, reply, p) => {
    // A test helper: in live mode the operation does not exist (not found, never forbidden).
    if (p.mode !== 'test') throw new AppError('route_not_found', 'POST /api/v1/forms/{form_id}/expire exists in test mode only: call it with a test key (fk_test_…). The operator can expire any form with `formsign forms expire ID`.');
    return sendJson(reply, await expireFormAtOnce(s.domain, p, req.params.form_id));
  },
});
