import { removeOrigin } from '../../../domain/embed/embed-origins.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'removeEmbedOrigin',
  handler: (s) => async (req, _reply, p) => removeOrigin(s.domain, p, req.query.origin),
});
