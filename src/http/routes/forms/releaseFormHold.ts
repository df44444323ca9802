import { releaseHold } from '../../../domain/forms/legal-hold.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'releaseFormHold',
  handler: (s) => async (req, reply, p) => sendJson(reply, await releaseHold(s.domain, p, req.params.form_id)),
});
