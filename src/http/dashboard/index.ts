import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { acceptUploads } from '../plugins/uploads.js';
import type { HttpServices } from '../services.js';
import { registerKeysApi } from './api-keys.js';
import { registerMembersApi } from './api-members.js';
import { registerNotifySettingsApi } from './api-notify-settings.js';
import { registerSessionApi } from './api-session.js';
import { registerSignInPolicyApi } from './api-sign-in-policy.js';
import { registerTwoFactorApi } from './api-two-factor.js';
import { registerSsoCallback, registerSsoStart } from './sso-routes.js';
import { registerTemplatesApi } from './api-templates.js';
import { hasSessionGuard, jsonErrorHandler } from './guard.js';
import { needOf } from '../../lib/dashboard-permissions.js';
import { registerSpa } from './spa.js';
// Dashboard part 2 (issue 24).
import { registerFormsApi } from './api-forms.js';
import { registerFormLifecycleApi } from './api-form-lifecycle.js';
import { registerOutboxApi } from './api-outbox.js';
import { registerAccountSettingsApi } from './api-account-settings.js';
import { registerBrandingApi } from './api-branding.js';
import { registerAccountApi } from './api-usage.js';
import { registerWebhooksApi } from './api-webhooks.js';
import { registerBulkSendsApi } from './api-bulk-sends.js';
import { sessionGuard } from './guard.js';
import { dashboardLimitHook } from './limit-hook.js';

/**
 * The dashboard: the built single-page app at /dashboard and the API it calls under /dashboard/api
 * (sessions instead of API keys, JSON errors in the contract's shape, the same use cases as /api/v1).
 */
export async function registerDashboard(app: FastifyInstance, s: HttpServices, opts: { uploadBodyLimit: number; distDir?: string }): Promise<void> {
  registerSpa(app, s.domain, opts.distDir, Boolean(s.devOutbox && (s.devOutbox.email || s.devOutbox.sms)));
  // Issue 39: the OpenID provider's redirect back lands outside the JSON API (it answers with a page).
  registerSsoCallback(app, s.domain);
  await app.register(async (api) => {
    // Every route must be in the permission table, and one that needs a role must run the guard that
    // enforces it: checked as each route is added, so an unlisted route stops the server at start.
    api.addHook('onRoute', (route) => {
      for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
        const need = needOf(method, route.url);
        if (need === undefined) throw new Error(`dashboard route ${method} ${route.url} is not in the permission table (src/lib/dashboard-permissions.ts)`);
        if (need !== 'public' && !hasSessionGuard(route.onRequest)) throw new Error(`dashboard route ${method} ${route.url} needs the role ${need} but has no session guard`);
      }
    });
    await acceptUploads(api);
    api.setErrorHandler(jsonErrorHandler);
    api.addHook('onSend', async (_req, reply) => {
      // Live-status reads keep their own `private, no-cache` (revalidated by ETag: see etag.ts).
      if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-store');
    });
    registerSessionApi(api, s.domain);
    registerSsoStart(api, s.domain);
    registerTwoFactorApi(api, s.domain);
    registerSignInPolicyApi(api, s.domain);
    registerTemplatesApi(api, s.domain, { ...opts, limits: s.limits, onLimited: (reason) => s.metrics?.limited(reason) });
    registerKeysApi(api, s.domain, s.authenticator);
    // Dashboard part 2 (issue 24): writes count as the API endpoint they mirror.
    const guard = sessionGuard(s.domain);
    const limited = (method: string, apiRoute: string) => [guard, dashboardLimitHook(s.limits, method, apiRoute, (reason) => s.metrics?.limited(reason))];
    registerFormsApi(api, s.domain, s.openapi, limited);
    registerFormLifecycleApi(api, s.domain, s.openapi, limited);
    registerWebhooksApi(api, s.domain, s.openapi, limited);
    registerOutboxApi(api, s.domain, s.devOutbox ?? { email: false, sms: false });
    registerAccountApi(api, s.domain, s.openapi, s.limits);
    registerNotifySettingsApi(api, s.domain);
    registerAccountSettingsApi(api, s.domain, s.openapi, limited);
    registerMembersApi(api, s.domain);
    // Issue 42: the Bulk send page.
    registerBulkSendsApi(api, s.domain, s.openapi, s.limits, limited);
    // Issue 42: Settings → Branding.
    registerBrandingApi(api, s.domain, s.openapi);
    api.all('/*', async (req) => {
      throw new AppError('route_not_found', `No dashboard API route ${req.method} ${req.url.split('?')[0]}.`);
    });
  }, { prefix: '/dashboard/api' });
}
