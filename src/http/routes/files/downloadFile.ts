import { downloadSignedPdf } from '../../../domain/forms/signed-pdf.js';
import type { operations } from '../../../generated/api.js';
import { definePublicRoute } from '../route.js';

type Params = operations['downloadFile']['parameters']['path'];

export default definePublicRoute({
  operationId: 'downloadFile',
  handler: (s) => async (req, reply) => {
    const { pdf, filename } = await downloadSignedPdf(s.domain, (req.params as Params).token);
    return reply
      .type('application/pdf')
      .header('Content-Disposition', `attachment; filename="${filename}"`)
      // The address is a credential: keep it out of shared caches and referrers.
      .header('Cache-Control', 'private, no-store')
      .header('Referrer-Policy', 'no-referrer')
      .send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  },
});
