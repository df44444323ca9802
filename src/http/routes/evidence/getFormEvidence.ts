import { evidenceBundle } from '../../../domain/evidence/evidence-bundle.js';
import { clientGoneSignal } from '../client-gone.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'getFormEvidence',
  handler: (s) => async (req, reply, p) => {
    const { zip, filename } = await evidenceBundle(s.domain, p, req.params.form_id, { owner: p.accountId, signal: clientGoneSignal(reply) });
    return reply
      .header('Content-Disposition', `attachment; filename="${filename}"`)
      .header('Cache-Control', 'private, no-store')
      .type('application/zip')
      .send(Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength));
  },
});
