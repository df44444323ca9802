import { exportSubject } from '../../../domain/data-subjects/export-subject.js';
import { clientGoneSignal } from '../client-gone.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'exportDataSubject',
  handler: (s) => async (req, reply, p) => {
    const { zip, filename } = await exportSubject(s.domain, p, req.query, req.apiKeyId ?? 'api', { owner: p.accountId, signal: clientGoneSignal(reply) });
    return reply
      .header('Content-Disposition', `attachment; filename="${filename}"`)
      .header('Cache-Control', 'private, no-store')
      .type('application/zip')
      .send(Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength));
  },
});
