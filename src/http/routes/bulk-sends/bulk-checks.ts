import type { BulkQuota, RowShape } from '../../../domain/bulk/create-bulk-send.js';
import type { Limits } from '../../../domain/limits/limits.js';
import type { OpenApiDocument } from '../../openapi.js';
import { bodySchemaCheck } from '../../plugins/validation.js';

// What a bulk send's rows are checked with (issue 42), for the API's route and the dashboard's: the
// single calls' own request schemas, and the month's quota as the limiter keeps it.

export function rowShape(doc: OpenApiDocument): RowShape {
  return { createForm: bodySchemaCheck(doc, 'CreateFormRequest'), sendForm: bodySchemaCheck(doc, 'SendFormRequest') };
}

/** Absent limits (a server built without them): nothing to check or charge. */
export function bulkQuota(limits: Limits | undefined, accountId: string): BulkQuota | undefined {
  if (!limits) return undefined;
  return { callsLeft: () => limits.monthlyLeft(accountId), charge: (calls) => limits.charge(accountId, calls) };
}
