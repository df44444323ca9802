import { AppError } from '../../../domain/errors.js';
import { verifyDocument } from '../../../domain/evidence/verify-document.js';
import { clientGoneSignal } from '../client-gone.js';
import { defineRoute } from '../route.js';
import { readUpload } from '../templates/upload-file.js';

const NO_TEXT_PARTS: ReadonlySet<string> = new Set();
const SEND_A_PDF = 'Send the PDF as the request body with `Content-Type: application/pdf`, or as the `file` part of a multipart/form-data body.';

export default defineRoute({
  operationId: 'verifyPdf',
  multipart: true,
  handler: (s) => async (req, reply, p) => {
    const signal = clientGoneSignal(reply);
    const job = { owner: p.accountId, signal };
    if (Buffer.isBuffer(req.body) && req.body.length > 0) {
      return reply.send(await verifyDocument(s.domain, new Uint8Array(req.body.buffer, req.body.byteOffset, req.body.byteLength), job));
    }
    if (!req.isMultipart()) throw new AppError('parameter_missing', `The request has no PDF. ${SEND_A_PDF}`, 'file');
    const upload = await readUpload(req, NO_TEXT_PARTS);
    try {
      if (!upload.path) throw new AppError('parameter_missing', 'Missing required parameter `file`: the PDF to verify.', 'file');
      return reply.send(await verifyDocument(s.domain, { path: upload.path }, job));
    } finally {
      await upload.discard();
    }
  },
});
