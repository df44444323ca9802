// Reads the createTemplate multipart body: the `file` part is streamed to a temporary file (the PDF
// worker reads it from there), so a waiting 20 MiB upload costs disk, not memory; the text parts are
// kept as strings. Malformed bodies and misused parts become the contract's 400s here.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../../domain/errors.js';

export interface Upload {
  /** The temporary file holding the `file` part, when one was sent. */
  path: string | undefined;
  filename: string | undefined;
  text: Record<string, string>;
  /** Removes the temporary file; safe to call more than once. */
  discard(): Promise<void>;
}

const TEXT_PARTS = new Set(['name', 'fields']);
const ONE_FILE = 'Send exactly one `file` part.';

/** @fastify/multipart's codes for what the client sent wrongly (its limits stay 413 via the error handler). */
function multipartError(err: unknown): unknown {
  if (err instanceof AppError || !(err instanceof Error)) return err;
  const code = (err as Error & { code?: string }).code;
  if (code === 'FST_FILES_LIMIT') return new AppError('parameter_invalid', ONE_FILE, 'file');
  if (code === 'FST_PROTO_VIOLATION') return new AppError('parameter_unknown', 'Received a part whose name is reserved (such as __proto__ or constructor). The parts are file, name and fields.');
  if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return err;
  // busboy's parse errors (no boundary, a part cut short, the body ending early) and a closed request.
  if (code === 'FST_REQ_PREMATURE_CLOSE' || /multipart|boundary|part|unexpected end/i.test(err.message)) {
    return new AppError('parameter_invalid', `The multipart/form-data body is malformed (${err.message.replace(/\.$/, '')}). Send the PDF as a \`file\` part of a complete multipart body.`);
  }
  return err;
}

/** `textParts`: the names of the text parts the operation takes beside `file` (createTemplate's by default). */
export async function readUpload(req: FastifyRequest, textParts: ReadonlySet<string> = TEXT_PARTS): Promise<Upload> {
  const dir = await mkdtemp(join(tmpdir(), 'formsign-upload-'));
  const upload: Upload = {
    path: undefined,
    filename: undefined,
    text: {},
    discard: () => rm(dir, { recursive: true, force: true }),
  };
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw new AppError('parameter_unknown', `Received unknown file part '${part.fieldname}'.`, part.fieldname);
        if (upload.path) throw new AppError('parameter_invalid', ONE_FILE, 'file');
        const path = join(dir, 'upload.pdf');
        await pipeline(part.file, createWriteStream(path));
        if (part.file.truncated) throw new req.server.multipartErrors.RequestFileTooLargeError();
        upload.path = path;
        upload.filename = part.filename;
      } else {
        if (!textParts.has(part.fieldname)) throw new AppError('parameter_unknown', `Received unknown parameter '${part.fieldname}'.`, part.fieldname);
        upload.text[part.fieldname] = String(part.value);
      }
    }
    return upload;
  } catch (err) {
    await upload.discard();
    throw multipartError(err);
  }
}

/**
 * What the upload said, as a digest: file name, text parts and the file's bytes. An upload's
 * Idempotency-Key fingerprint is made of this rather than of the raw body, whose multipart boundary a
 * client picks anew on every send of the same upload.
 */
export async function digestUpload(upload: Upload): Promise<string> {
  const hash = createHash('sha256').update(JSON.stringify({ filename: upload.filename ?? null, text: Object.entries(upload.text).sort(([a], [b]) => (a < b ? -1 : 1)) }));
  if (upload.path) for await (const chunk of createReadStream(upload.path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
