import { AppError } from '../../../domain/errors.js';
import { prepareImportTemplate } from '../../../domain/templates/import-template.js';
import { uploadParts } from '../../../domain/templates/upload-input.js';
import { valueAnswer } from '../../answer.js';
import { claimUploadKey } from '../../plugins/idempotency.js';
import { clientGoneSignal } from '../client-gone.js';
import { defineWriteRoute } from '../route.js';
import { digestUpload, readUpload } from './upload-file.js';

export default defineWriteRoute({
  operationId: 'createTemplate',
  multipart: true,
  prepare: (s) => async (req, p, reply) => {
    if (!req.isMultipart()) {
      throw new AppError('unsupported_media_type', 'Upload the PDF as multipart/form-data with a `file` part (and optional `name` and `fields` parts).');
    }
    // A client that leaves while its PDF waits for a worker takes the job out of the queue.
    const signal = clientGoneSignal(reply);
    const upload = await readUpload(req);
    try {
      // An Idempotency-Key is claimed once the parts are known (they are its fingerprint).
      if (await claimUploadKey(req, reply, await digestUpload(upload))) return undefined;
      const { path, filename, text } = upload;
      if (!path) throw new AppError('parameter_missing', 'Missing required parameter `file`: the PDF to import.', 'file');
      // The same checks as the dashboard's upload (domain/templates/upload-input.ts).
      const { name, fields } = uploadParts(text);
      return await prepareImportTemplate(s.domain, p, { pdf: { path }, name, fields, fallbackName: filename?.replace(/\.(pdf|docx|odt)$/i, ''), signal });
    } finally {
      await upload.discard();
    }
  },
  answer: (template) => valueAnswer(201, template),
});
