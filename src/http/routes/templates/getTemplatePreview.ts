import { previewTemplate } from '../../../domain/templates/preview-template.js';
import { clientGoneSignal } from '../client-gone.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'getTemplatePreview',
  handler: (s) => async (req, reply, p) => {
    const { pdf, filename } = await previewTemplate(s.domain, p, req.params.template_id, clientGoneSignal(reply));
    return reply.type('application/pdf').header('Cache-Control', 'private, no-cache')
      .header('Content-Disposition', `inline; filename="${filename}"`).send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  },
});
