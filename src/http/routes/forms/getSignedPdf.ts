import { signedPdfAddress, signedPdfBase64 } from '../../../domain/forms/signed-pdf.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'getSignedPdf',
  handler: (s) => async (req, reply, p) => {
    const formId = req.params.form_id;
    if (req.query.format === 'base64') return sendJson(reply, await signedPdfBase64(s.domain, p, formId));
    return reply.redirect(await signedPdfAddress(s.domain, p, formId), 302);
  },
});
