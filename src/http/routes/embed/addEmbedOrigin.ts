import { addOrigin } from '../../../domain/embed/embed-origins.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'addEmbedOrigin',
  handler: (s) => async (req, reply, p) => {
    const { origin, created } = await addOrigin(s.domain, p, req.body.origin);
    return reply.code(created ? 201 : 200).send(origin);
  },
});
