import { deleteTemplate } from '../../../domain/templates/delete-template.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'deleteTemplate',
  handler: (s) => async (req, _reply, p) => deleteTemplate(s.domain, p, req.params.template_id),
});
