import { getFormPdf } from '../../../domain/forms/render-form-pdf.js';
import type { operations } from '../../../generated/api.js';
import { defineRoute } from '../route.js';

type Params = operations['getFormPdf']['parameters']['path'];

export default defineRoute({
  operationId: 'getFormPdf',
  handler: (s) => async (req, reply) => {
    const { pdf, filename } = await getFormPdf(s.domain, req.partition, (req.params as Params).form_id);
    return reply.type('application/pdf').header('Content-Disposition', `inline; filename="${filename}"`).send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  },
});
