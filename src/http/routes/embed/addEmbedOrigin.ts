import { prepareAddOrigin } from '../../../domain/embed/embed-origins.js';
import { valueAnswer } from '../../answer.js';
import { defineWriteRoute } from '../route.js';

export default defineWriteRoute({
  operationId: 'addEmbedOrigin',
  prepare: (s) => async (req, p) => prepareAddOrigin(s.domain, p, req.body.origin),
  // 201 when it was added, 200 when it was already allowed.
  answer: ({ origin, created }) => valueAnswer(created ? 201 : 200, origin),
});
