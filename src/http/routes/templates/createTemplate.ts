import { AppError } from '../../../domain/errors.js';
import { importTemplate } from '../../../domain/templates/import-template.js';
import { uploadParts } from '../../../domain/templates/upload-input.js';
import type { Partition } from '../../../lib/partition.js';
import type { HttpServices } from '../../services.js';
import { clientGoneSignal } from '../client-gone.js';
import { defineRoute } from '../route.js';
import { readUpload, type Upload } from './upload-file.js';

export default defineRoute({
  operationId: 'createTemplate',
  multipart: true,
  handler: (s) => async (req, reply, p) => {
    if (!req.isMultipart()) {
      throw new AppError('unsupported_media_type', 'Upload the PDF as multipart/form-data with a `file` part (and optional `name` and `fields` parts).');
    }
    // A client that leaves while its PDF waits for a worker takes the job out of the queue.
    const signal = clientGoneSignal(reply);
    const upload = await readUpload(req);
    try {
      return reply.code(201).send(await importUpload(s, p, upload, signal));
    } finally {
      await upload.discard();
    }
  },
});

async function importUpload(s: HttpServices, p: Partition, { path, filename, text }: Upload, signal: AbortSignal): Promise<unknown> {
  if (!path) throw new AppError('parameter_missing', 'Missing required parameter `file`: the PDF to import.', 'file');
  // The same checks as the dashboard's upload (domain/templates/upload-input.ts).
  const { name, fields } = uploadParts(text);
  return importTemplate(s.domain, p, { pdf: { path }, name, fields, fallbackName: filename?.replace(/\.pdf$/i, ''), signal });
}

