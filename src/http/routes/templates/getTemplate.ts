import { getTemplate } from '../../../domain/templates/read-templates.js';
import type { operations } from '../../../generated/api.js';
import { defineRoute } from '../route.js';

type Params = operations['getTemplate']['parameters']['path'];

export default defineRoute({
  operationId: 'getTemplate',
  handler: (s) => async (req) => getTemplate(s.domain, req.partition, (req.params as Params).template_id),
});
