import type { BulkPreview } from '../../lib/bulk-preview.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { isPrefillable } from '../forms/value-rules.js';
import { rowsThatFit, type BulkRowInput, type RowError } from './bulk-rules.js';

export type { BulkPreview };
import { checkBulkRows, type BulkQuota, type CreateBulkSendInput, type RowShape } from './create-bulk-send.js';

/** How many rows the dashboard's preview shows. */
export const PREVIEW_ROWS = 5;

/**
 * The dashboard's look before sending (issue 42): the rows checked exactly as `createBulkSend` checks
 * them, the first few mapped to the template's fields, every refusal, and how many rows the quota
 * covers. Writes nothing and charges nothing.
 */
export async function previewBulkSend(deps: Pick<DomainDeps, 'db' | 'clock' | 'templateCache' | 'bulkSendMaxRows'>, p: Partition, input: CreateBulkSendInput, shape: RowShape, quota: BulkQuota | undefined): Promise<BulkPreview> {
  const { template, rows, refused } = await checkBulkRows(deps, p, input, shape);
  const valid = rows.length - refused.length;
  const fillable = template.fields.defs.filter(isPrefillable);
  return {
    object: 'bulk_send_preview',
    template_id: template.id,
    total: rows.length,
    valid,
    fit: rowsThatFit(quota ? await quota.callsLeft() : null, valid),
    fields: fillable.map((f) => ({ name: f.name, label: f.label ?? f.name, type: f.type, required: f.required })),
    rows: rows.slice(0, PREVIEW_ROWS).map((r) => {
      const input = r.input === null ? null : (JSON.parse(r.input) as BulkRowInput);
      return { row: r.row, prefill: input?.prefill ?? null, recipients: input?.recipients ?? null, name: input?.name ?? null, error: r.error === null ? null : (JSON.parse(r.error) as RowError) };
    }),
    row_errors: refused,
  };
}
