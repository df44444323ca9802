import { updateTemplate } from '../../../domain/templates/update-template.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'updateTemplate',
  handler: (s) => async (req, _reply, p) => updateTemplate(s.domain, p, req.params.template_id, req.body),
});
