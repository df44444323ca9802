import { listForms } from '../../../domain/forms/read-forms.js';
import type { operations } from '../../../generated/api.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

type Query = NonNullable<operations['listForms']['parameters']['query']>;

export default defineRoute({
  operationId: 'listForms',
  handler: (s) => async (req, reply, p) => sendJson(reply, await listForms(s.domain, p, req.query as Query)),
});
