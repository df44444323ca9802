import { listOperations, type OpenApiDocument, type OpenApiOperation } from '../openapi.js';
import { schemasFor, type RouteSchemas } from '../plugins/validation.js';
import type { OperationId, OperationRequest } from '../routes/route.js';

// The dashboard's calls that mirror an API operation validate with that operation's own schemas from
// openapi.yaml (body and query string), so a form created from the dashboard meets exactly the API's
// rules. The path differs (`/dashboard/api/:mode/…`, the partition from the session), so path
// parameters are left to the use case, which answers an unknown id with 404 as the API does.

export type ModeParams = { mode: string };

/** A dashboard route's request typed from the operation it mirrors, with its own path parameters. */
export interface DashboardRoute<Id extends OperationId, P extends ModeParams = ModeParams, Q = unknown> {
  Params: P;
  Querystring: OperationRequest<Id>['query'] & Q;
  Body: OperationRequest<Id>['body'];
}

export function operationSchemas(doc: OpenApiDocument, operationId: OperationId, extraQuery: Record<string, unknown> = {}): RouteSchemas {
  const entry = listOperations(doc).find((e) => e.operation.operationId === operationId);
  if (!entry) throw new Error(`openapi.yaml has no operation ${operationId}`);
  const { body, querystring } = schemasFor(doc, entry.operation, doc.paths[entry.path]?.['parameters'] as OpenApiOperation['parameters']);
  const out: RouteSchemas = {};
  if (body) out.body = body;
  if (querystring) {
    const q = querystring as { properties?: Record<string, unknown> };
    out.querystring = { ...querystring, properties: { ...q.properties, ...extraQuery } };
  }
  return out;
}
