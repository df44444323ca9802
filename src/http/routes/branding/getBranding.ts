import { getBranding } from '../../../domain/branding/branding.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'getBranding',
  handler: (s) => async (_req, _reply, p) => getBranding(s.domain, p.accountId),
});
