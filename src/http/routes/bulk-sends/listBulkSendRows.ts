import { listBulkSendRows } from '../../../domain/bulk/read-bulk-sends.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'listBulkSendRows',
  handler: (s) => async (req, reply, p) => reply.send(await listBulkSendRows(s.domain, p, req.params.bulk_send_id, req.query)),
});
