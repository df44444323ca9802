import { readFile } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../domain/errors.js';
import { claimUploadKey } from '../../plugins/idempotency.js';
import { digestUpload, readUpload } from '../templates/upload-file.js';

const CSV_PARTS: ReadonlySet<string> = new Set(['template_id']);

/**
 * A bulk send's CSV upload (multipart: `template_id` and the `file`), read as text. Undefined when the
 * request's Idempotency-Key replayed an earlier answer (the upload's parts are its fingerprint).
 */
export async function readBulkCsv(req: FastifyRequest, reply: FastifyReply | undefined): Promise<{ template_id: string; csv: string } | undefined> {
  const upload = await readUpload(req, CSV_PARTS);
  try {
    if (reply && (await claimUploadKey(req, reply, await digestUpload(upload)))) return undefined;
    const templateId = upload.text['template_id']?.trim();
    if (!templateId) throw new AppError('parameter_missing', 'Missing required parameter `template_id`: the template every row fills.', 'template_id');
    if (!upload.path) throw new AppError('parameter_missing', 'Missing required parameter `file`: the CSV, a header line and one line per form.', 'file');
    const bytes = await readFile(upload.path);
    const csv = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    if (csv.includes('\uFFFD')) throw new AppError('parameter_invalid', 'The CSV is not UTF-8 text: save it as "CSV UTF-8" and upload it again.', 'file');
    return { template_id: templateId, csv };
  } finally {
    await upload.discard();
  }
}
