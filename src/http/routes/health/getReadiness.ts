import { AppError } from '../../../domain/errors.js';
import { definePublicRoute } from '../route.js';

export default definePublicRoute({
  operationId: 'getReadiness',
  handler: (s) => async () => {
    if (await s.storage?.isFull()) throw new AppError('storage_unavailable', 'The disk that holds the data is full: writes are refused until space is freed.', undefined, { 'Retry-After': '30' });
    if (!(await s.ready())) throw new AppError('service_unavailable', 'The database or file store is not reachable.');
    return { status: 'ok' };
  },
});
