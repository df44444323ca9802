import { AppError } from '../../../domain/errors.js';
import { definePublicRoute } from '../route.js';

export default definePublicRoute({
  operationId: 'getReadiness',
  handler: (s) => async () => {
    if (!(await s.ready())) throw new AppError('service_unavailable', 'The database or file store is not reachable.');
    return { status: 'ok' };
  },
});
