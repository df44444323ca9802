import { listOrigins } from '../../../domain/embed/embed-origins.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'listEmbedOrigins',
  handler: (s) => async (_req, _reply, p) => listOrigins(s.domain, p),
});
