import { updateBranding } from '../../../domain/branding/branding.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'updateBranding',
  handler: (s) => async (req, _reply, p) => updateBranding(s.domain, p.accountId, req.body),
});
