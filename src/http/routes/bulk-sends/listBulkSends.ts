import { listBulkSends } from '../../../domain/bulk/read-bulk-sends.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'listBulkSends',
  handler: (s) => async (req, _reply, p) => listBulkSends(s.domain, p, req.query),
});
