import { deleteTemplate } from '../../../domain/templates/delete-template.js';
import type { operations } from '../../../generated/api.js';
import { defineRoute } from '../route.js';

type Params = operations['deleteTemplate']['parameters']['path'];

export default defineRoute({
  operationId: 'deleteTemplate',
  handler: (s) => async (req, _reply, p) => deleteTemplate(s.domain, p, (req.params as Params).template_id),
});
