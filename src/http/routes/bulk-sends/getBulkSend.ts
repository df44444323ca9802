import { getBulkSend } from '../../../domain/bulk/read-bulk-sends.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'getBulkSend',
  handler: (s) => async (req, reply, p) => reply.send(await getBulkSend(s.domain, p, req.params.bulk_send_id)),
});
