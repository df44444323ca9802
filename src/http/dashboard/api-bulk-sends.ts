import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { commit } from '../../domain/prepared-write.js';
import { prepareCreateBulkSend, type CreateBulkSendInput } from '../../domain/bulk/create-bulk-send.js';
import { previewBulkSend } from '../../domain/bulk/preview-bulk-send.js';
import { getBulkSend, listBulkSendRows, listBulkSends } from '../../domain/bulk/read-bulk-sends.js';
import type { DomainDeps } from '../../domain/context.js';
import { AppError } from '../../domain/errors.js';
import type { Limits } from '../../domain/limits/limits.js';
import { sessionPartition } from '../../domain/users/live-mode.js';
import type { OpenApiDocument } from '../openapi.js';
import { bulkQuota, rowShape } from '../routes/bulk-sends/bulk-checks.js';
import { readBulkCsv } from '../routes/bulk-sends/bulk-upload.js';
import { sendJsonWithEtag } from './etag.js';
import { sessionGuard, sessionOf } from './guard.js';
import { operationSchemas, type DashboardRoute, type ModeParams } from './operation-schemas.js';

// The dashboard's Bulk send page (issue 42): a preview of a CSV (checked as the API checks it, the
// first rows mapped to the template's fields, nothing written), the send itself (the API's use case,
// under its window and quota), the earlier bulk sends, and a bulk send's progress and rows.

type BulkParams = ModeParams & { bulk_id: string };
type Limited = (method: string, apiRoute: string) => onRequestHookHandler[];

const partition = (req: FastifyRequest<{ Params: ModeParams }>) => sessionPartition(sessionOf(req), req.params.mode);

async function bulkInput(req: FastifyRequest): Promise<CreateBulkSendInput> {
  if (!req.isMultipart()) throw new AppError('unsupported_media_type', 'Upload the CSV as multipart/form-data with `template_id` and `file` parts.');
  const upload = await readBulkCsv(req, undefined);
  if (!upload) throw new Error('the dashboard sends no Idempotency-Key');
  return upload;
}

export function registerBulkSendsApi(api: FastifyInstance, deps: DomainDeps, doc: OpenApiDocument, limits: Limits | undefined, limited: Limited): void {
  const guard = sessionGuard(deps);
  const shape = rowShape(doc);

  api.post<{ Params: ModeParams }>('/:mode/bulk-sends/preview', { onRequest: guard }, async (req, reply) => {
    const p = partition(req);
    return reply.send(await previewBulkSend(deps, p, await bulkInput(req), shape, bulkQuota(limits, p.accountId)));
  });

  api.post<{ Params: ModeParams }>('/:mode/bulk-sends', { onRequest: limited('POST', '/api/v1/bulk-sends') }, async (req, reply) => {
    const p = partition(req);
    const bulk = await commit(deps, prepareCreateBulkSend(deps, p, await bulkInput(req), { shape, quota: bulkQuota(limits, p.accountId) }));
    return reply.code(202).send(bulk);
  });

  api.get<DashboardRoute<'listBulkSends', ModeParams>>('/:mode/bulk-sends', { onRequest: guard, schema: operationSchemas(doc, 'listBulkSends') }, async (req, reply) =>
    sendJsonWithEtag(req, reply, { json: JSON.stringify(await listBulkSends(deps, partition(req), req.query)) }),
  );

  api.get<{ Params: BulkParams }>('/:mode/bulk-sends/:bulk_id', { onRequest: guard }, async (req, reply) =>
    sendJsonWithEtag(req, reply, { json: JSON.stringify(await getBulkSend(deps, partition(req), req.params.bulk_id)) }),
  );

  api.get<DashboardRoute<'listBulkSendRows', BulkParams>>('/:mode/bulk-sends/:bulk_id/rows', { onRequest: guard, schema: operationSchemas(doc, 'listBulkSendRows') }, async (req, reply) =>
    sendJsonWithEtag(req, reply, { json: JSON.stringify(await listBulkSendRows(deps, partition(req), req.params.bulk_id, req.query)) }),
  );
}
