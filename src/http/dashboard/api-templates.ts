import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import { AppError } from '../../domain/errors.js';
import { importTemplate } from '../../domain/templates/import-template.js';
import { getTemplate, listTemplates } from '../../domain/templates/read-templates.js';
import { readTemplatePdf } from '../../domain/templates/template-pdf.js';
import { uploadParts } from '../../domain/templates/upload-input.js';
import { sessionPartition } from '../../domain/users/live-mode.js';
import type { LimitReason, Limits } from '../../domain/limits/limits.js';
import { sendJson } from '../reply-json.js';
import { clientGoneSignal } from '../routes/client-gone.js';
import { readUpload } from '../routes/templates/upload-file.js';
import { sessionGuard, sessionOf } from './guard.js';
import { registerTemplateEdits } from './api-template-edits.js';
import { dashboardLimitHook } from './limit-hook.js';

// Templates of the signed-in account, in the mode the page shows (`/dashboard/api/test/templates`):
// the same use cases as the public API, with the partition taken from the session instead of a key.

type ModeParams = { mode: string };
type TemplateParams = ModeParams & { template_id: string };

const partition = (req: FastifyRequest<{ Params: ModeParams }>) => sessionPartition(sessionOf(req), req.params.mode);

export function registerTemplatesApi(api: FastifyInstance, deps: DomainDeps, opts: { uploadBodyLimit: number; limits?: Limits | undefined; onLimited?: (reason: LimitReason) => void }): void {
  const guard = sessionGuard(deps);
  const limited = (method: string, apiRoute: string) => [guard, dashboardLimitHook(opts.limits, method, apiRoute, opts.onLimited)];

  api.get<{ Params: ModeParams; Querystring: { starting_after?: string } }>('/:mode/templates', { onRequest: guard }, async (req, reply) => {
    const after = typeof req.query.starting_after === 'string' ? req.query.starting_after : undefined;
    return sendJson(reply, await listTemplates(deps, partition(req), { limit: 100, starting_after: after }));
  });

  api.get<{ Params: TemplateParams }>('/:mode/templates/:template_id', { onRequest: guard }, async (req, reply) => sendJson(reply, await getTemplate(deps, partition(req), req.params.template_id)));

  // The builder draws the pages from the template's own PDF.
  api.get<{ Params: TemplateParams }>('/:mode/templates/:template_id/pdf', { onRequest: guard }, async (req, reply) => {
    const pdf = await readTemplatePdf(deps, partition(req), req.params.template_id);
    return reply.header('Cache-Control', 'private, no-store').header('X-Content-Type-Options', 'nosniff').type('application/pdf').send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  });

  api.post<{ Params: ModeParams }>('/:mode/templates', { onRequest: limited('POST', '/api/v1/templates'), bodyLimit: opts.uploadBodyLimit }, async (req, reply) => {
    const p = partition(req);
    if (!req.isMultipart()) throw new AppError('unsupported_media_type', 'Upload the PDF as multipart/form-data with a `file` part.');
    const signal = clientGoneSignal(reply);
    const upload = await readUpload(req);
    try {
      if (!upload.path) throw new AppError('parameter_missing', 'Choose a PDF file to upload.', 'file');
      // The API's checks of the name and fields parts (a `fields` part replaces detection there too).
      const { name, fields } = uploadParts(upload.text);
      const template = await importTemplate(deps, p, { pdf: { path: upload.path }, name, fields, fallbackName: upload.filename?.replace(/\.pdf$/i, ''), signal });
      return reply.code(201).send(template);
    } finally {
      await upload.discard();
    }
  });

  registerTemplateEdits(api, deps, limited, partition);
}
