import { prepareRelabelTemplate } from '../../../domain/templates/relabel-template.js';
import { valueAnswer } from '../../answer.js';
import { defineWriteRoute } from '../route.js';

export default defineWriteRoute({
  operationId: 'relabelTemplate',
  prepare: (s) => async (req, p) => prepareRelabelTemplate(s.domain, p, req.params.template_id),
  answer: (template) => valueAnswer(200, template),
});
