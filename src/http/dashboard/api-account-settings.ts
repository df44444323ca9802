import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import { getLocaleSettings, setLocaleSettings } from '../../domain/accounts/set-account-locale.js';
import { getRetention, setRetention } from '../../domain/forms/retention.js';
import { addOrigin, listOrigins, removeOrigin } from '../../domain/embed/embed-origins.js';
import { AppError } from '../../domain/errors.js';
import { sessionPartition } from '../../domain/users/live-mode.js';
import type { OpenApiDocument } from '../openapi.js';
import { requireJsonBody } from '../plugins/validation.js';
import { settingsChange } from './actor.js';
import { sessionGuard, sessionOf } from './guard.js';
import { jsonObject } from './json-input.js';
import { operationSchemas, type DashboardRoute, type ModeParams } from './operation-schemas.js';

// Settings (issue 24): the signers' default language of the signed-in account (what
// `formsign accounts set-locale` sets), and the origins allowed to embed the signing pages of the
// page's mode (the API's /api/v1/embed/origins use cases and schemas; writes under the API's window
// and quota for those endpoints). Changes are CSRF-checked by the guard.

type Limited = (method: string, apiRoute: string) => onRequestHookHandler[];
const partition = (req: FastifyRequest<{ Params: ModeParams }>) => sessionPartition(sessionOf(req), req.params.mode);
const ORIGINS = '/api/v1/embed/origins';

export function registerAccountSettingsApi(api: FastifyInstance, deps: DomainDeps, doc: OpenApiDocument, limited: Limited): void {
  const guard = sessionGuard(deps);

  api.get('/settings/locale', { onRequest: guard }, async (req) => getLocaleSettings(deps, sessionOf(req).accountId));

  api.put('/settings/locale', { onRequest: guard }, async (req) => {
    const locale = jsonObject(req, ['locale'])['locale'];
    if (locale !== null && typeof locale !== 'string') throw new AppError('parameter_invalid', 'locale must be a language tag such as "de", or null for English.', 'locale');
    return setLocaleSettings(settingsChange(deps, req, 'locale', { locale }), sessionOf(req).accountId, locale);
  });

  // Data retention (issue 40): days after a form finishes until it is purged, or null (kept).
  api.get('/settings/retention', { onRequest: guard }, async (req) => getRetention(deps, sessionOf(req).accountId));
  api.put('/settings/retention', { onRequest: guard }, async (req) => {
    const days = jsonObject(req, ['retention_days'])['retention_days'];
    return setRetention(settingsChange(deps, req, 'retention_days', { retention_days: typeof days === 'number' ? days : null }), sessionOf(req).accountId, days);
  });

  api.get<{ Params: ModeParams }>('/:mode/embed/origins', { onRequest: guard }, async (req) => listOrigins(deps, partition(req)));

  api.post<DashboardRoute<'addEmbedOrigin'>>('/:mode/embed/origins', { onRequest: limited('POST', ORIGINS), schema: operationSchemas(doc, 'addEmbedOrigin'), preValidation: requireJsonBody }, async (req, reply) => {
    const { origin, created } = await addOrigin(settingsChange(deps, req, 'embed_origins', { added: req.body.origin, mode: req.params.mode }), partition(req), req.body.origin);
    return reply.code(created ? 201 : 200).send(origin);
  });

  api.delete<DashboardRoute<'removeEmbedOrigin'>>('/:mode/embed/origins', { onRequest: limited('DELETE', ORIGINS), schema: operationSchemas(doc, 'removeEmbedOrigin') }, async (req) =>
    removeOrigin(settingsChange(deps, req, 'embed_origins', { removed: req.query.origin, mode: req.params.mode }), partition(req), req.query.origin),
  );
}
