import { signedPdfAddress, signedPdfBase64 } from '../../../domain/forms/signed-pdf.js';
import type { operations } from '../../../generated/api.js';
import { sendJson } from '../../reply-json.js';
import { defineRoute } from '../route.js';

type Params = operations['getSignedPdf']['parameters']['path'];
type Query = NonNullable<operations['getSignedPdf']['parameters']['query']>;

export default defineRoute({
  operationId: 'getSignedPdf',
  handler: (s) => async (req, reply, p) => {
    const formId = (req.params as Params).form_id;
    if ((req.query as Query).format === 'base64') return sendJson(reply, await signedPdfBase64(s.domain, p, formId));
    return reply.redirect(await signedPdfAddress(s.domain, p, formId), 302);
  },
});
