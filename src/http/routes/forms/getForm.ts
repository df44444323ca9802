import { getForm } from '../../../domain/forms/read-forms.js';
import type { operations } from '../../../generated/api.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

type Params = operations['getForm']['parameters']['path'];

export default defineRoute({
  operationId: 'getForm',
  handler: (s) => async (req, reply, p) => sendJson(reply, await getForm(s.domain, p, (req.params as Params).form_id)),
});
