import { AppError } from '../../../domain/errors.js';
import { importTemplate } from '../../../domain/templates/import-template.js';
import { defineRoute } from '../route.js';

const TEXT_PARTS = new Set(['name', 'fields']);

export default defineRoute({
  operationId: 'createTemplate',
  multipart: true,
  handler: (s) => async (req, reply) => {
    if (!req.isMultipart()) {
      throw new AppError('unsupported_media_type', 'Upload the PDF as multipart/form-data with a `file` part (and optional `name` and `fields` parts).');
    }
    let pdf: Buffer | undefined;
    let filename: string | undefined;
    const text: Record<string, string> = {};
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw new AppError('parameter_unknown', `Received unknown file part '${part.fieldname}'.`, part.fieldname);
        if (pdf) throw new AppError('parameter_invalid', 'Send exactly one `file` part.', 'file');
        pdf = await part.toBuffer();
        filename = part.filename;
      } else {
        if (!TEXT_PARTS.has(part.fieldname)) throw new AppError('parameter_unknown', `Received unknown parameter '${part.fieldname}'.`, part.fieldname);
        text[part.fieldname] = String(part.value);
      }
    }
    if (!pdf) throw new AppError('parameter_missing', 'Missing required parameter `file`: the PDF to import.', 'file');
    if (text['name'] !== undefined && (text['name'].trim().length === 0 || text['name'].length > 200)) {
      throw new AppError('parameter_invalid', 'name must be 1 to 200 characters.', 'name');
    }
    let fields: unknown;
    if (text['fields'] !== undefined) {
      try {
        fields = JSON.parse(text['fields']);
      } catch {
        throw new AppError('parameter_invalid', 'fields must be a JSON array of field objects.', 'fields');
      }
    }
    const template = await importTemplate(s.domain, req.partition, {
      pdf,
      name: text['name'],
      fields,
      fallbackName: filename?.replace(/\.pdf$/i, ''),
    });
    return reply.code(201).send(template);
  },
});
