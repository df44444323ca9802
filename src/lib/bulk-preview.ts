// The dashboard's Bulk send preview (issue 42), one type for the server that builds it
// (domain/bulk/preview-bulk-send.ts) and the page that shows it (web/src/pages/BulkSendPage.tsx).

/** The contract's error of a refused row, without its request id (RowError in openapi.yaml). */
export interface BulkRowError {
  code: string;
  message: string;
  param?: string;
}

export interface BulkPreview {
  object: 'bulk_send_preview';
  template_id: string;
  total: number;
  /** Rows that pass the checks and would be sent. */
  valid: number;
  /** Of the valid rows, how many the month's quota covers (all of them when there is no quota). */
  fit: number;
  /** The template's fields the rows can fill, in the template's order, with their labels. */
  fields: Array<{ name: string; label: string; type: string; required: boolean }>;
  /** The first rows as they would be sent (values by field name), or their error. */
  rows: Array<{ row: number; prefill: Record<string, unknown> | null; recipients: Array<{ channel: string; email?: string; phone?: string; name?: string; locale?: string }> | null; name: string | null; error: BulkRowError | null }>;
  row_errors: Array<{ row: number; error: BulkRowError }>;
}
