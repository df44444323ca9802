import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'getHealth',
  handler: () => async () => ({ status: 'ok' }),
});
