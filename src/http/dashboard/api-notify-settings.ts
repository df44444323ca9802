import type { FastifyInstance } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import { getNotifySettings, setNotifySettings } from '../../domain/accounts/notify-settings.js';
import { AppError } from '../../domain/errors.js';
import { settingsChange } from './actor.js';
import { sessionGuard, sessionOf } from './guard.js';
import { jsonObject } from './json-input.js';

// Settings → notifications: where the signed-in account's notices go (completed, declined, viewed)
// and whether views are told. PATCH changes the fields given and keeps the others (CSRF-checked by the guard).

export function registerNotifySettingsApi(api: FastifyInstance, deps: DomainDeps): void {
  const guard = sessionGuard(deps);

  api.get('/settings/notifications', { onRequest: guard }, async (req) => getNotifySettings(deps, sessionOf(req).accountId));

  api.patch('/settings/notifications', { onRequest: guard }, async (req) => {
    const body = jsonObject(req, ['notify_email', 'notify_viewed']);
    const email = body['notify_email'];
    const viewed = body['notify_viewed'];
    if (email !== undefined && email !== null && typeof email !== 'string') throw new AppError('parameter_invalid', 'notify_email must be an e-mail address, or null to have no notices.', 'notify_email');
    if (viewed !== undefined && typeof viewed !== 'boolean') throw new AppError('parameter_invalid', 'notify_viewed must be true or false.', 'notify_viewed');
    return setNotifySettings(settingsChange(deps, req, 'notifications', { ...(email !== undefined ? { notify_email: email } : {}), ...(viewed !== undefined ? { notify_viewed: viewed } : {}) }), sessionOf(req).accountId, { notify_email: email, notify_viewed: viewed });
  });
}
