import type { FastifyInstance } from 'fastify';
import { getBranding, updateBranding } from '../../domain/branding/branding.js';
import type { DomainDeps } from '../../domain/context.js';
import type { OpenApiDocument } from '../openapi.js';
import { requireJsonBody } from '../plugins/validation.js';
import { settingsChange } from './actor.js';
import { sessionGuard, sessionOf } from './guard.js';
import { operationSchemas, type DashboardRoute } from './operation-schemas.js';

// Settings → Branding (issue 42): the account's brand, read and set with the API's use cases and the
// API's request schema (`updateBranding`), so the dashboard and the API refuse the same things alike.
// The brand is the account's (both modes), so these routes have no mode. Changes are CSRF-checked by the guard.

export function registerBrandingApi(api: FastifyInstance, deps: DomainDeps, doc: OpenApiDocument): void {
  const guard = sessionGuard(deps);
  api.get('/settings/branding', { onRequest: guard }, async (req) => getBranding(deps, sessionOf(req).accountId));
  // Logged like the other settings (which of the brand's parts changed; the logo itself is not copied).
  api.put<DashboardRoute<'updateBranding'>>('/settings/branding', { onRequest: guard, schema: operationSchemas(doc, 'updateBranding'), preValidation: requireJsonBody }, async (req) =>
    updateBranding(settingsChange(deps, req, 'branding', { changed: Object.keys(req.body).filter((k) => ['logo', 'accent_color', 'sender_name'].includes(k)).join(',') }), sessionOf(req).accountId, req.body),
  );
}
