import { updateTemplate } from '../../../domain/templates/update-template.js';
import type { components, operations } from '../../../generated/api.js';
import { defineRoute } from '../route.js';

type Params = operations['updateTemplate']['parameters']['path'];
type Body = components['schemas']['UpdateTemplateRequest'];

export default defineRoute({
  operationId: 'updateTemplate',
  handler: (s) => async (req, _reply, p) => updateTemplate(s.domain, p, (req.params as Params).template_id, req.body as Body),
});
