import { downloadSignedPdf } from '../../../domain/forms/signed-pdf.js';
import { definePublicRoute } from '../route.js';

export default definePublicRoute({
  operationId: 'downloadFile',
  handler: (s) => async (req, reply) => {
    const { pdf, filename } = await downloadSignedPdf(s.domain, req.params.token);
    return reply
      .type('application/pdf')
      .header('Content-Disposition', `attachment; filename="${filename}"`)
      // The address is a credential: keep it out of shared caches and referrers.
      .header('Cache-Control', 'private, no-store')
      .header('Referrer-Policy', 'no-referrer')
      .send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  },
});
