import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import { sessionPartition } from '../../domain/users/live-mode.js';
import { createWebhook } from '../../domain/webhooks/create-webhook.js';
import { deleteWebhook } from '../../domain/webhooks/delete-webhook.js';
import { listWebhookDeliveries, listWebhooks } from '../../domain/webhooks/read-webhooks.js';
import { retryWebhookDelivery } from '../../domain/webhooks/retry-webhook-delivery.js';
import { rotateWebhookSecret } from '../../domain/webhooks/rotate-webhook-secret.js';
import { sendTestEvent } from '../../domain/webhooks/send-test-event.js';
import { updateWebhook } from '../../domain/webhooks/update-webhook.js';
import type { OpenApiDocument } from '../openapi.js';
import { requireJsonBody } from '../plugins/validation.js';
import { withActivity } from '../../domain/activity/record-activity.js';
import { actorOf } from './actor.js';
import { sessionGuard, sessionOf } from './guard.js';
import { operationSchemas, type DashboardRoute, type ModeParams } from './operation-schemas.js';

// Webhooks of the signed-in account in the page's mode: the API's use cases and schemas; writes under
// the API's window and quota for webhook writes (the test event under the window only, as in the API).

type HookParams = ModeParams & { webhook_id: string };
type DeliveryParams = HookParams & { delivery_id: string };
type Limited = (method: string, apiRoute: string) => onRequestHookHandler[];

const partition = (req: FastifyRequest<{ Params: ModeParams }>) => sessionPartition(sessionOf(req), req.params.mode);
type Logged = 'webhook.created' | 'webhook.rotated' | 'webhook.deleted';
const HOOK = '/api/v1/webhooks/:webhook_id';

export function registerWebhooksApi(api: FastifyInstance, deps: DomainDeps, doc: OpenApiDocument, limited: Limited): void {
  const guard = sessionGuard(deps);
  // Creating, rotating and deleting a webhook go in the account's activity log, in the change's transaction.
  // The entry names the webhook by its URL (from what the write returned); a delete of nothing logs nothing.
  const logged = (req: FastifyRequest<{ Params: ModeParams }>, kind: Logged, id?: string) =>
    withActivity(deps, (result) => {
      if (result === false) return null;
      const hook = typeof result === 'object' && result !== null ? (result as { id?: unknown; url?: unknown }) : {};
      const webhookId = typeof hook.id === 'string' ? hook.id : (id ?? null);
      return { accountId: sessionOf(req).accountId, actor: actorOf(req), kind, target: typeof hook.url === 'string' ? hook.url : webhookId, detail: { mode: req.params.mode, webhook_id: webhookId } };
    });

  api.get<DashboardRoute<'listWebhooks'>>('/:mode/webhooks', { onRequest: guard, schema: operationSchemas(doc, 'listWebhooks') }, async (req) => listWebhooks(deps, partition(req), { limit: req.query.limit ?? 100, starting_after: req.query.starting_after }));

  api.post<DashboardRoute<'createWebhook'>>('/:mode/webhooks', { onRequest: limited('POST', '/api/v1/webhooks'), schema: operationSchemas(doc, 'createWebhook'), preValidation: requireJsonBody }, async (req, reply) =>
    reply.code(201).send(await createWebhook(logged(req, 'webhook.created'), partition(req), req.body)),
  );

  api.patch<DashboardRoute<'updateWebhook', HookParams>>('/:mode/webhooks/:webhook_id', { onRequest: limited('PATCH', HOOK), schema: operationSchemas(doc, 'updateWebhook'), preValidation: requireJsonBody }, async (req) =>
    updateWebhook(deps, partition(req), req.params.webhook_id, req.body),
  );

  api.delete<{ Params: HookParams }>('/:mode/webhooks/:webhook_id', { onRequest: limited('DELETE', HOOK) }, async (req) => deleteWebhook(logged(req, 'webhook.deleted', req.params.webhook_id), partition(req), req.params.webhook_id));

  api.post<{ Params: HookParams }>('/:mode/webhooks/:webhook_id/rotate-secret', { onRequest: limited('POST', `${HOOK}/rotate-secret`) }, async (req) => rotateWebhookSecret(logged(req, 'webhook.rotated', req.params.webhook_id), partition(req), req.params.webhook_id));

  api.post<{ Params: HookParams }>('/:mode/webhooks/:webhook_id/test', { onRequest: limited('POST', `${HOOK}/test`) }, async (req) => sendTestEvent(deps, partition(req), req.params.webhook_id));

  api.get<DashboardRoute<'listWebhookDeliveries', HookParams>>('/:mode/webhooks/:webhook_id/deliveries', { onRequest: guard, schema: operationSchemas(doc, 'listWebhookDeliveries') }, async (req) =>
    listWebhookDeliveries(deps, partition(req), req.params.webhook_id, { limit: req.query.limit ?? 50, starting_after: req.query.starting_after }),
  );

  api.post<{ Params: DeliveryParams }>('/:mode/webhooks/:webhook_id/deliveries/:delivery_id/retry', { onRequest: limited('POST', `${HOOK}/deliveries/:delivery_id/retry`) }, async (req) =>
    retryWebhookDelivery(deps, partition(req), req.params.webhook_id, req.params.delivery_id),
  );
}
