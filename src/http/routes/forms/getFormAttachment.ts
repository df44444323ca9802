import { readFormAttachment } from '../../../domain/forms/form-attachment.js';
import { defineRoute } from '../route.js';

/** An ASCII stand-in for a header's plain `filename`; the real name goes in `filename*` (RFC 6266). */
const asciiName = (name: string): string => name.replace(/[^\x20-\x7e]/g, '_');

export default defineRoute({
  operationId: 'getFormAttachment',
  handler: (s) => async (req, reply, p) => {
    const file = await readFormAttachment(s.domain, p, req.params.form_id, req.params.attachment_id);
    return reply
      .header('Content-Disposition', `attachment; filename="${asciiName(file.filename)}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`)
      .header('Cache-Control', 'private, no-store')
      .header('X-Content-Type-Options', 'nosniff')
      .header('X-Attachment-SHA256', file.sha256)
      .type(file.contentType)
      .send(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength));
  },
});
