import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import { createForm } from '../../domain/forms/create-form.js';
import { getForm, listFormEvents, listForms } from '../../domain/forms/read-forms.js';
import { getFormPdf } from '../../domain/forms/render-form-pdf.js';
import { readSignedPdf } from '../../domain/forms/signed-pdf.js';
import { generateForm } from '../../domain/generate/generate-form.js';
import { remindForm } from '../../domain/lifecycle/remind-recipients.js';
import { voidForm } from '../../domain/lifecycle/void-form.js';
import { sendForm } from '../../domain/sending/send-form.js';
import { sessionPartition } from '../../domain/users/live-mode.js';
import type { OpenApiDocument } from '../openapi.js';
import { requireJsonBody } from '../plugins/validation.js';
import { unmatchedHeader } from '../prefill-header.js';
import { sendJson } from '../reply-json.js';
import { clientGoneSignal } from '../routes/client-gone.js';
import { sendJsonWithEtag } from './etag.js';
import { sessionGuard, sessionOf } from './guard.js';
import { operationSchemas, type DashboardRoute, type ModeParams } from './operation-schemas.js';

// Forms of the signed-in account in the mode the page shows: list (with a search by name), detail,
// events, the filled and the signed PDF, create, generate, send, remind and void — the API's use cases, validated
// by the API's schemas, writes under the API's windows and quota. Reads are not limited: the pages
// poll them for live status (see etag.ts).

type FormParams = ModeParams & { form_id: string };
type Limited = (method: string, apiRoute: string) => onRequestHookHandler[];

const partition = (req: FastifyRequest<{ Params: ModeParams }>) => sessionPartition(sessionOf(req), req.params.mode);

export function registerFormsApi(api: FastifyInstance, deps: DomainDeps, doc: OpenApiDocument, limited: Limited): void {
  const guard = sessionGuard(deps);

  api.get<DashboardRoute<'listForms', ModeParams, { name?: string }>>('/:mode/forms', { onRequest: guard, schema: operationSchemas(doc, 'listForms', { name: { type: 'string', minLength: 1, maxLength: 200 } }) }, async (req, reply) => {
    const { limit, starting_after, status, name } = req.query;
    return sendJsonWithEtag(req, reply, await listForms(deps, partition(req), { limit, starting_after, status, name }));
  });

  api.get<{ Params: FormParams }>('/:mode/forms/:form_id', { onRequest: guard }, async (req, reply) => sendJsonWithEtag(req, reply, await getForm(deps, partition(req), req.params.form_id)));

  api.get<DashboardRoute<'listFormEvents', FormParams>>('/:mode/forms/:form_id/events', { onRequest: guard, schema: operationSchemas(doc, 'listFormEvents') }, async (req, reply) =>
    sendJsonWithEtag(req, reply, await listFormEvents(deps, partition(req), req.params.form_id, { limit: req.query.limit ?? 100, starting_after: req.query.starting_after })),
  );

  api.get<{ Params: FormParams }>('/:mode/forms/:form_id/pdf', { onRequest: guard }, async (req, reply) => {
    const result = await getFormPdf(deps, partition(req), req.params.form_id, undefined, clientGoneSignal(reply));
    if (result.notModified) return reply.code(304).send();
    const { pdf, filename } = result;
    return reply.type('application/pdf').header('X-Content-Type-Options', 'nosniff').header('Content-Disposition', `inline; filename="${filename}"`).send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  });

  // Straight from the store with the session as the credential (no presigned hop), as an attachment.
  api.get<{ Params: FormParams }>('/:mode/forms/:form_id/signed-pdf', { onRequest: guard }, async (req, reply) => {
    const { pdf, filename } = await readSignedPdf(deps, partition(req), req.params.form_id);
    return reply.type('application/pdf').header('X-Content-Type-Options', 'nosniff').header('Content-Disposition', `attachment; filename="${filename}"`).send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  });

  api.post<DashboardRoute<'createForm'>>('/:mode/forms', { onRequest: limited('POST', '/api/v1/forms'), schema: operationSchemas(doc, 'createForm'), preValidation: requireJsonBody }, async (req, reply) => {
    const { form, unmatched } = await createForm(deps, partition(req), req.body);
    const header = unmatchedHeader(unmatched);
    if (header !== undefined) reply.header('X-Service-Prefill-Unmatched', header);
    return sendJson(reply, form, 201);
  });

  api.post<DashboardRoute<'generateForm'>>('/:mode/forms/generate', { onRequest: limited('POST', '/api/v1/forms/generate'), schema: operationSchemas(doc, 'generateForm'), preValidation: requireJsonBody }, async (req, reply) => {
    const { form } = await generateForm(deps, partition(req), req.body, clientGoneSignal(reply));
    return sendJson(reply, form, 201);
  });

  api.post<DashboardRoute<'sendForm', FormParams>>('/:mode/forms/:form_id/send', { onRequest: limited('POST', '/api/v1/forms/:form_id/send'), schema: operationSchemas(doc, 'sendForm'), preValidation: requireJsonBody }, async (req, reply) =>
    sendJson(reply, await sendForm(deps, partition(req), req.params.form_id, req.body)),
  );

  // Lifecycle from the detail page (issue 24): the API's use cases, each under its endpoint's window.
  api.post<DashboardRoute<'remindForm', FormParams>>('/:mode/forms/:form_id/remind', { onRequest: limited('POST', '/api/v1/forms/:form_id/remind'), schema: operationSchemas(doc, 'remindForm'), preValidation: requireJsonBody }, async (req, reply) =>
    sendJson(reply, await remindForm(deps, partition(req), req.params.form_id, { recipients: req.body?.recipients })),
  );

  api.post<DashboardRoute<'voidForm', FormParams>>('/:mode/forms/:form_id/void', { onRequest: limited('POST', '/api/v1/forms/:form_id/void'), schema: operationSchemas(doc, 'voidForm'), preValidation: requireJsonBody }, async (req, reply) =>
    sendJson(reply, await voidForm(deps, partition(req), req.params.form_id, { reason: req.body?.reason })),
  );
}
