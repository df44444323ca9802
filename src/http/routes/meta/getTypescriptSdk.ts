import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'getTypescriptSdk',
  handler: (s) => async (_req, reply) =>
    reply.type('application/typescript; charset=utf-8').header('Content-Disposition', 'inline; filename="formsign-api.d.ts"').send(s.sdkSource),
});
