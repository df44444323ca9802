import type { FastifyInstance } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import type { Limits } from '../../domain/limits/limits.js';
import { accountUsage } from '../../domain/limits/account-usage.js';
import { renameAccount } from '../../domain/accounts/rename-account.js';
import { listOperations, type OpenApiDocument } from '../openapi.js';
import { settingsChange } from './actor.js';
import { sessionGuard, sessionOf } from './guard.js';
import { jsonObject } from './json-input.js';

// Usage (the month against the quota, 30 days of calls and 429s, each endpoint's window) and the
// account's settings. Both are per account, across the two modes, as the quota is.

export function registerAccountApi(api: FastifyInstance, deps: DomainDeps, doc: OpenApiDocument, limits: Limits | undefined): void {
  const guard = sessionGuard(deps);
  // Every counted endpoint of the contract, in the document's order (the two documents are not counted).
  const endpoints = listOperations(doc)
    .filter((e) => !e.planned && e.route.startsWith('/api/v1/') && !(Array.isArray(e.operation.security) && e.operation.security.length === 0))
    .map((e) => ({ method: e.method, route: e.route }));

  api.get('/usage', { onRequest: guard }, async (req) => accountUsage(deps, sessionOf(req).accountId, limits, endpoints));

  api.patch('/account', { onRequest: guard }, async (req) => {
    const body = jsonObject(req, ['name']);
    return renameAccount(settingsChange(deps, req, 'account_name', { name: typeof body['name'] === 'string' ? body['name'].slice(0, 200) : null }), sessionOf(req).accountId, body['name']);
  });
}
