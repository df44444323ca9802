import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';

export const JSON_BODY_LIMIT = 1024 * 1024;
export const PDF_UPLOAD_LIMIT = 20 * 1024 * 1024;
/** A whole upload request: the PDF and the text parts beside it. */
export const UPLOAD_BODY_LIMIT = PDF_UPLOAD_LIMIT + JSON_BODY_LIMIT;

/**
 * Gives `scope` the multipart parser for the one upload (the PDF, its name and its fields; API and
 * dashboard alike). Register it only in a scope that holds upload routes: the plugin adds two async
 * hooks and a 'close' listener to every request of its scope, which the JSON routes (the hot path)
 * have no use for.
 */
export async function acceptUploads(scope: FastifyInstance): Promise<void> {
  await scope.register(multipart, { limits: { fileSize: PDF_UPLOAD_LIMIT, files: 1, fields: 10, fieldSize: JSON_BODY_LIMIT, parts: 12 } });
  // A PDF sent as the body itself (POST /api/v1/verify): read whole, up to the same 20 MiB (413 past it);
  // the operations that do not list application/pdf refuse it with a 415 before it is read.
  scope.addContentTypeParser('application/pdf', { parseAs: 'buffer', bodyLimit: PDF_UPLOAD_LIMIT }, (_req, body, done) => done(null, body));
}
