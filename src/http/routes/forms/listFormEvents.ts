import { listFormEvents } from '../../../domain/forms/read-forms.js';
import type { operations } from '../../../generated/api.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

type Params = operations['listFormEvents']['parameters']['path'];
type Query = NonNullable<operations['listFormEvents']['parameters']['query']>;

export default defineRoute({
  operationId: 'listFormEvents',
  handler: (s) => async (req, reply, p) => sendJson(reply, await listFormEvents(s.domain, p, (req.params as Params).form_id, req.query as Query)),
});
