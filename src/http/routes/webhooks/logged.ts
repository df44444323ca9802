import type { FastifyRequest } from 'fastify';
import type { ActivityEntry } from '../../../domain/activity/record-activity.js';
import type { Partition } from '../../../lib/partition.js';

/**
 * The account activity entry of a webhook made or rotated through the API (issue 39): no member did
 * it, an API key did, named in the entry's detail with the mode.
 */
export function apiWebhookActivity(req: FastifyRequest, p: Partition, kind: 'webhook.created' | 'webhook.rotated', hook: { id: string; url: string }): ActivityEntry {
  return { accountId: p.accountId, actor: { userId: null, email: null, ip: req.ip || null }, kind, target: hook.url, detail: { mode: p.mode, webhook_id: hook.id, api_key: req.apiKeyId ?? null } };
}
