import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import { evidenceBundle } from '../../domain/evidence/evidence-bundle.js';
import { deleteForm } from '../../domain/forms/delete-form.js';
import { holdForm, releaseHold } from '../../domain/forms/legal-hold.js';
import { formVerification } from '../../domain/evidence/verification-summary.js';
import { updateRecipient } from '../../domain/lifecycle/reassign-recipient.js';
import { sessionPartition } from '../../domain/users/live-mode.js';
import type { OpenApiDocument } from '../openapi.js';
import { requireJsonBody } from '../plugins/validation.js';
import { sendJson } from '../reply-json.js';
import { clientGoneSignal } from '../routes/client-gone.js';
import { json } from '../../domain/json.js';
import { sendJsonWithEtag } from './etag.js';
import { sessionGuard, sessionOf } from './guard.js';
import { operationSchemas, type DashboardRoute, type ModeParams } from './operation-schemas.js';

// A form's data lifecycle from its page (issue 40): legal hold and its release, delete, and the
// evidence bundle — the API's use cases under the API's windows; the hold names the signed-in user.
// Issue 38: each recipient's verification and "Change recipient".

type FormParams = ModeParams & { form_id: string };
type RecipientParams = FormParams & { recipient_id: string };
type Limited = (method: string, apiRoute: string) => onRequestHookHandler[];

const partition = (req: FastifyRequest<{ Params: ModeParams }>) => sessionPartition(sessionOf(req), req.params.mode);

export function registerFormLifecycleApi(api: FastifyInstance, deps: DomainDeps, doc: OpenApiDocument, limited: Limited): void {
  const guard = sessionGuard(deps);
  api.post<DashboardRoute<'holdForm', FormParams>>('/:mode/forms/:form_id/hold', { onRequest: limited('POST', '/api/v1/forms/:form_id/hold'), schema: operationSchemas(doc, 'holdForm'), preValidation: requireJsonBody }, async (req, reply) =>
    sendJson(reply, await holdForm(deps, partition(req), req.params.form_id, { reason: req.body.reason, by: sessionOf(req).view.user.email })),
  );
  api.delete<{ Params: FormParams }>('/:mode/forms/:form_id/hold', { onRequest: limited('DELETE', '/api/v1/forms/:form_id/hold') }, async (req, reply) =>
    sendJson(reply, await releaseHold(deps, partition(req), req.params.form_id)),
  );
  api.delete<{ Params: FormParams }>('/:mode/forms/:form_id', { onRequest: limited('DELETE', '/api/v1/forms/:form_id') }, async (req, reply) =>
    sendJson(reply, (await deleteForm(deps, partition(req), req.params.form_id)).form),
  );
  // Issue 38 item 6: who verified when (per recipient), and "Change recipient" (the API's PATCH, its window).
  api.get<{ Params: FormParams }>('/:mode/forms/:form_id/verification', { onRequest: guard }, async (req, reply) =>
    sendJsonWithEtag(req, reply, json(JSON.stringify(await formVerification(deps, partition(req), req.params.form_id)))),
  );
  api.patch<DashboardRoute<'updateRecipient', RecipientParams>>('/:mode/forms/:form_id/recipients/:recipient_id', { onRequest: limited('PATCH', '/api/v1/forms/:form_id/recipients/:recipient_id'), schema: operationSchemas(doc, 'updateRecipient'), preValidation: requireJsonBody }, async (req, reply) =>
    sendJson(reply, await updateRecipient(deps, partition(req), req.params.form_id, req.params.recipient_id, req.body)),
  );
  api.get<{ Params: FormParams }>('/:mode/forms/:form_id/evidence', { onRequest: limited('GET', '/api/v1/forms/:form_id/evidence') }, async (req, reply) => {
    const p = partition(req);
    const { zip, filename } = await evidenceBundle(deps, p, req.params.form_id, { owner: p.accountId, signal: clientGoneSignal(reply) });
    return reply.type('application/zip').header('X-Content-Type-Options', 'nosniff').header('Content-Disposition', `attachment; filename="${filename}"`).send(Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength));
  });
}
