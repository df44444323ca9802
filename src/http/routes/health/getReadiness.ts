import { AppError } from '../../../domain/errors.js';
import { definePublicRoute } from '../route.js';

export default definePublicRoute({
  operationId: 'getReadiness',
  handler: (s) => async () => {
    if (await s.storage?.isFull()) throw new AppError('storage_unavailable', 'The disk that holds the data is full: writes are refused until space is freed.', undefined, { 'Retry-After': '30' });
    const down = await s.unreachable();
    // The message names each part that is down, so an operator reading the probe knows where to look.
    if (down.length > 0) throw new AppError('service_unavailable', `Not ready: ${down.join(' and ')} ${down.length > 1 ? 'are' : 'is'} not reachable.`, undefined, { 'Retry-After': '5' });
    // Reachable but unable to seal: a revoked or expired signing certificate needs the operator.
    const sealing = await s.sealing?.();
    if (sealing) throw new AppError('service_unavailable', `Not ready: ${sealing}`, undefined, { 'Retry-After': '60' });
    return { status: 'ok' };
  },
});
