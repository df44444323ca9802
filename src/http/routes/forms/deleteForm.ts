import { deleteForm } from '../../../domain/forms/delete-form.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'deleteForm',
  handler: (s) => async (req, reply, p) => {
    const { form, already } = await deleteForm(s.domain, p, req.params.form_id);
    // Deleting again only repeats the answer: the month was charged for the deletion already.
    if (already) s.limits?.refund(p.accountId, req.method, req.routeOptions.url ?? '');
    return sendJson(reply, form);
  },
});
