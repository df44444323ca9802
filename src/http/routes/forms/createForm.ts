import { createForm } from '../../../domain/forms/create-form.js';
import type { components } from '../../../generated/api.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

type Body = components['schemas']['CreateFormRequest'];

export default defineRoute({
  operationId: 'createForm',
  handler: (s) => async (req, reply) => {
    const { form, unmatched } = await createForm(s.domain, req.partition, req.body as Body);
    // Header values are Latin-1 on the wire; percent-encode anything else so a key is never mangled.
    if (unmatched.length > 0) reply.header('X-Service-Prefill-Unmatched', unmatched.map(encodeHeaderItem).join(','));
    return sendJson(reply, form, 201);
  },
});

function encodeHeaderItem(key: string): string {
  return /^[\x20-\x7e]*$/.test(key) && !/[,%]/.test(key) ? key : encodeURIComponent(key);
}
