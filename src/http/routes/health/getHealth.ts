import { definePublicRoute } from '../route.js';

export default definePublicRoute({
  operationId: 'getHealth',
  handler: () => async () => ({ status: 'ok' }),
});
