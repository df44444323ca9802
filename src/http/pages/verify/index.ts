import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DomainDeps } from '../../../domain/context.js';
import { AppError } from '../../../domain/errors.js';
import { verifyDocument } from '../../../domain/evidence/verify-document.js';
import { sendJsonError } from '../../error-body.js';
import { PDF_UPLOAD_LIMIT } from '../../plugins/uploads.js';
import { clientGoneSignal } from '../../routes/client-gone.js';
import { sendPage } from '../send-page.js';
import { registerAssets } from '../static-asset.js';
import { AddressWindow } from './address-window.js';
import { VERIFY_ASSETS, VERIFY_CSP, verifyPage } from './verify-html.js';

// The public verifier: GET /verify is a page where anyone drops a PDF; the page's script posts the
// file's bytes to POST /verify (application/pdf, at most 20 MiB), which answers the same Verification
// as POST /api/v1/verify. No account, so each client address gets a bounded number per window; the
// file is analysed in the PDF pool's public lane (its own queue and threads, at the lowest CPU priority,
// with a tighter CPU bound: no upload here delays an account's work) and never stored. Everything the
// page loads is from this origin.

/** The header the page's script sends: a cross-site page cannot send it without a CORS preflight, never granted. */
export const VERIFY_SUBMIT_HEADER = 'x-formsign-verify';

export function registerVerifyPage(app: FastifyInstance, deps: DomainDeps): void {
  registerAssets(app, Object.values(VERIFY_ASSETS));
  const window = new AddressWindow(() => deps.clock.now().getTime());

  app.get('/verify', (_req, reply) => sendPage(reply, verifyPage(), { csp: VERIFY_CSP }));

  void app.register(async (scope) => {
    scope.addContentTypeParser('application/pdf', { parseAs: 'buffer', bodyLimit: PDF_UPLOAD_LIMIT }, (_req, body, done) => done(null, body));
    scope.post('/verify', { bodyLimit: PDF_UPLOAD_LIMIT, errorHandler: (err: Error, req: FastifyRequest, reply: FastifyReply) => sendJsonError(err, req, reply, 'verification failed') }, async (req, reply) => {
      if (req.headers[VERIFY_SUBMIT_HEADER] !== '1') throw new AppError('parameter_invalid', 'Verify from the /verify page: this request is missing its page header.');
      const address = req.ip || 'unknown';
      window.take(address);
      const body = req.body;
      if (body !== undefined && !Buffer.isBuffer(body)) throw new AppError('unsupported_media_type', 'Send the PDF itself, as application/pdf.');
      if (!body || body.length === 0) throw new AppError('parameter_missing', 'Choose a PDF to verify.', 'file');
      const result = await verifyDocument(deps, new Uint8Array(body.buffer, body.byteOffset, body.byteLength), { owner: `verify-page ${address}`, lane: 'public', signal: clientGoneSignal(reply) });
      return reply.header('Cache-Control', 'no-store').send(result);
    });
  });
}
