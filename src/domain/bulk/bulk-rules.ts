import type { BulkRowError } from '../../lib/bulk-preview.js';
import type { RecipientInput } from '../sending/recipient-rules.js';
import { AppError } from '../errors.js';

// Pure rules of bulk sending (issue 42, CONTRACT Part E "Sending"); unit-tested without a database.

/**
 * Rows per bulk send. SQLite has one writer for the whole process: the request's one transaction
 * (the rows and the job) holds it for every other write meanwhile, and one worker process sends the
 * rows; 1,000 rows keep that hold in the tens of milliseconds. PostgreSQL writes beside other writes
 * and shares the rows among any number of workers, so it takes five times as many.
 */
export const MAX_ROWS = { sqlite: 1_000, postgres: 5_000 } as const;

/** A row is one `createForm` call and one `sendForm` call, and costs the quota what those two would. */
export const CALLS_PER_ROW = 2;

/** The keys a row may have: createForm's `prefill` and `name`, sendForm's `recipients`. */
export const ROW_KEYS: ReadonlySet<string> = new Set(['prefill', 'recipients', 'name']);

/** A row that passed the checks of `createForm` and `sendForm`, as stored until its form is sent. */
export interface BulkRowInput {
  prefill: Record<string, unknown>;
  recipients: RecipientInput[];
  name?: string;
}

/** How a row's refusal is stored and shown: the contract's error without its request id. */
export type RowError = BulkRowError;

export function rowError(err: AppError): RowError {
  return { code: err.code, message: err.message, ...(err.param !== undefined ? { param: err.param } : {}) };
}

/** The rows that fit in what is left of the month's quota (null: the account has no monthly quota). */
export function rowsThatFit(callsLeft: number | null, rows: number): number {
  return callsLeft === null ? rows : Math.min(rows, Math.floor(Math.max(0, callsLeft) / CALLS_PER_ROW));
}

/** 402 `quota_exceeded` when the month's quota cannot cover every valid row; says how many fit. */
export function checkQuotaCovers(callsLeft: number | null, rows: number): void {
  const fit = rowsThatFit(callsLeft, rows);
  if (fit >= rows) return;
  throw new AppError(
    'quota_exceeded',
    `This account has ${callsLeft} API calls left this month and each row costs ${CALLS_PER_ROW} (one createForm and one sendForm), so ${fit} of the ${rows} valid rows fit. Send at most ${fit} rows, or wait for the quota to renew at the start of next month (UTC) or ask the operator to raise it; nothing was sent.`,
    'rows',
  );
}

/** The row count is refused before any row is read. */
export function checkRowCount(count: number, maxRows: number): void {
  if (count === 0) throw new AppError('parameter_missing', 'A bulk send needs at least one row: give `rows`, or a CSV with a header line and one line per form.', 'rows');
  if (count > maxRows) {
    throw new AppError('parameter_invalid', `A bulk send takes at most ${maxRows.toLocaleString('en-US')} rows on this server; this one has ${count.toLocaleString('en-US')}. Split it into several bulk sends.`, 'rows');
  }
}
