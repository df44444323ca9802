import { getFormPdf } from '../../../domain/forms/render-form-pdf.js';
import { clientGoneSignal } from '../client-gone.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'getFormPdf',
  handler: (s) => async (req, reply, p) => {
    const ifNoneMatch = req.headers['if-none-match'];
    const result = await getFormPdf(s.domain, p, req.params.form_id, ifNoneMatch, clientGoneSignal(reply));
    // The document changes whenever a value does: caches may keep it but must check back each time.
    reply.header('ETag', result.etag).header('Cache-Control', 'private, no-cache');
    if (result.notModified) return reply.code(304).send();
    const { pdf, filename } = result;
    return reply.type('application/pdf').header('Content-Disposition', `inline; filename="${filename}"`).send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  },
});
