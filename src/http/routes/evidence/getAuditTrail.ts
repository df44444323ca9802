import { auditTrailPdf } from '../../../domain/evidence/audit-trail-pdf.js';
import { clientGoneSignal } from '../client-gone.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'getAuditTrail',
  handler: (s) => async (req, reply, p) => {
    const { pdf, filename } = await auditTrailPdf(s.domain, p, req.params.form_id, { owner: p.accountId, signal: clientGoneSignal(reply) });
    return reply
      .header('Content-Disposition', `attachment; filename="${filename}"`)
      .header('Cache-Control', 'private, no-store')
      .type('application/pdf')
      .send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  },
});
