import { sendForm } from '../../../domain/sending/send-form.js';
import type { components, operations } from '../../../generated/api.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

type Params = operations['sendForm']['parameters']['path'];
type Body = components['schemas']['SendFormRequest'];

export default defineRoute({
  operationId: 'sendForm',
  handler: (s) => async (req, reply, p) => sendJson(reply, await sendForm(s.domain, p, (req.params as Params).form_id, req.body as Body)),
});
