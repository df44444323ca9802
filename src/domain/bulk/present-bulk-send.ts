import type { BulkSendRow, BulkSendRowRow } from '../../db/tables.js';
import type { components } from '../../generated/api.js';
import type { RowError } from './bulk-rules.js';

export type BulkSendView = components['schemas']['BulkSend'];
export type BulkSendRowView = components['schemas']['BulkSendRow'];

/** The BulkSend object; `row_errors` only in the create answer (the rows that were refused). */
export function bulkSendView(b: BulkSendRow, rowErrors?: ReadonlyArray<{ row: number; error: RowError }>): BulkSendView {
  return {
    object: 'bulk_send',
    id: b.id,
    mode: b.mode,
    template_id: b.template_id,
    status: b.status,
    total: Number(b.total),
    sent: Number(b.sent),
    failed: Number(b.failed),
    created_at: b.created_at,
    completed_at: b.completed_at,
    ...(rowErrors ? { row_errors: rowErrors.map((r) => ({ row: r.row, error: r.error })) } : {}),
  };
}

export function bulkRowView(r: BulkSendRowRow): BulkSendRowView {
  return {
    object: 'bulk_send_row',
    row: Number(r.row),
    status: r.status,
    form_id: r.form_id,
    error: r.error === null ? null : (JSON.parse(r.error) as RowError),
  };
}
