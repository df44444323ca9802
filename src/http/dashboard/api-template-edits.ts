import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import { commit } from '../../domain/prepared-write.js';
import { deleteTemplate } from '../../domain/templates/delete-template.js';
import { detectTemplateTags } from '../../domain/templates/detect-tags.js';
import { prepareRelabelTemplate } from '../../domain/templates/relabel-template.js';
import { updateTemplate } from '../../domain/templates/update-template.js';
import type { Partition } from '../../lib/partition.js';
import { jsonObject } from './json-input.js';

type TemplateParams = { mode: string; template_id: string };

// The builder's save, rename, delete and "Relabel from the PDF": the public API's use cases
// (PATCH/DELETE /api/v1/templates/{id}, POST /api/v1/templates/{id}/relabel),
// under the API's window and monthly quota for those endpoints.

export function registerTemplateEdits(api: FastifyInstance, deps: DomainDeps, limited: (method: string, apiRoute: string) => onRequestHookHandler[], partition: (req: FastifyRequest<{ Params: TemplateParams }>) => Partition): void {
  api.patch<{ Params: TemplateParams }>('/:mode/templates/:template_id', { onRequest: limited('PATCH', '/api/v1/templates/:template_id') }, async (req) => {
    const body = jsonObject(req, ['name', 'fields', 'signers']);
    return updateTemplate(deps, partition(req), req.params.template_id, body);
  });
  api.delete<{ Params: TemplateParams }>('/:mode/templates/:template_id', { onRequest: limited('DELETE', '/api/v1/templates/:template_id') }, async (req) => deleteTemplate(deps, partition(req), req.params.template_id));
  // "Detect tags" (issue 41): reads the document again and answers the fields found; changes nothing.
  api.post<{ Params: TemplateParams }>('/:mode/templates/:template_id/detect-tags', { onRequest: limited('POST', '/api/v1/templates/:template_id/relabel') }, async (req) => detectTemplateTags(deps, partition(req), req.params.template_id));
  api.post<{ Params: TemplateParams }>('/:mode/templates/:template_id/relabel', { onRequest: limited('POST', '/api/v1/templates/:template_id/relabel') }, async (req) => commit(deps, prepareRelabelTemplate(deps, partition(req), req.params.template_id)));
}
