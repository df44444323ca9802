import { AppError } from '../../../domain/errors.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'getReadiness',
  handler: (s) => async () => {
    if (!(await s.ready())) throw new AppError('service_unavailable', 'The database or file store is not reachable.');
    return { status: 'ok' };
  },
});
