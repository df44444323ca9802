import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import { AppError } from '../../domain/errors.js';
import { devMessageHtml, listDevOutbox, type DevOutboxChannels } from '../../domain/sending/dev-outbox.js';
import { sessionPartition } from '../../domain/users/live-mode.js';
import { sendJsonWithEtag } from './etag.js';
import { sessionGuard, sessionOf } from './guard.js';
import type { ModeParams } from './operation-schemas.js';

// The dev outbox page's data: only when a channel has no provider (no SMTP_URL, no SMS gateway), only
// the session's own account and mode. An e-mail's HTML is served as a document of its own under a
// sandbox policy (no script, no same-origin, nothing fetched), shown in a sandboxed iframe.

const MESSAGE_CSP = "sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'";

const partition = (req: FastifyRequest<{ Params: ModeParams }>) => sessionPartition(sessionOf(req), req.params.mode);

export function registerOutboxApi(api: FastifyInstance, deps: DomainDeps, channels: DevOutboxChannels): void {
  const guard = sessionGuard(deps);
  const enabled = channels.email || channels.sms;
  const refuse = () => new AppError('resource_not_found', 'This server delivers its messages through an SMTP server and an SMS gateway, so it keeps no dev outbox.');

  api.get<{ Params: ModeParams }>('/:mode/outbox', { onRequest: guard }, async (req, reply) => {
    if (!enabled) throw refuse();
    const list = await listDevOutbox(deps, partition(req), channels, sessionOf(req).view.user);
    return sendJsonWithEtag(req, reply, { json: JSON.stringify({ ...list, channels }) });
  });

  api.get<{ Params: ModeParams & { message_id: string } }>('/:mode/outbox/:message_id/html', { onRequest: guard }, async (req, reply) => {
    if (!enabled) throw refuse();
    const html = await devMessageHtml(deps, partition(req), channels, sessionOf(req).view.user, req.params.message_id);
    return reply
      .header('Content-Security-Policy', MESSAGE_CSP)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'no-referrer')
      .header('X-Frame-Options', 'SAMEORIGIN')
      .type('text/html; charset=utf-8')
      .send(html);
  });
}
