import { insertBulkSend, type NewBulkRow } from '../../db/repositories/bulk-sends.js';
import type { BulkSendRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Partition } from '../../lib/partition.js';
import { enqueue } from '../../outbox/enqueue.js';
import { bulkSendRun } from '../../outbox/jobs/bulk-send-run.job.js';
import type { CachedTemplate, DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import { checkPrefill } from '../forms/prefill-rules.js';
import type { PreparedWrite } from '../prepared-write.js';
import { assignSigners, normaliseRecipients, refuseFieldsOfNonSigners, type RecipientInput } from '../sending/recipient-rules.js';
import { loadTemplate } from '../templates/template-cache.js';
import { checkQuotaCovers, checkRowCount, MAX_ROWS, ROW_KEYS, rowError, type BulkRowInput, type RowError, CALLS_PER_ROW } from './bulk-rules.js';
import { rowsOfCsv } from './csv-rows.js';
import { bulkSendView, type BulkSendView } from './present-bulk-send.js';
import { recordBulkSendCompleted } from './record-bulk-event.js';

/**
 * The request bodies' schemas, checked by the caller's validator (the HTTP layer's Ajv over
 * openapi.yaml): a row is refused exactly as `createForm` and `sendForm` would refuse its parts.
 */
export interface RowShape {
  createForm(body: unknown): AppError | undefined;
  sendForm(body: unknown): AppError | undefined;
}

/** The month's quota as the limiter keeps it (domain/limits); absent: no limits (tests, the CLI). */
export interface BulkQuota {
  /** Calls left this month; null: the account has no monthly quota. */
  callsLeft(): Promise<number | null>;
  /** Counts calls made on the caller's behalf (the rows' createForm and sendForm). */
  charge(calls: number): void;
}

export type CreateBulkSendInput = { template_id: string } & ({ rows: readonly unknown[] } | { csv: string });

type Deps = Pick<DomainDeps, 'db' | 'clock' | 'templateCache' | 'bulkSendMaxRows'>;

/**
 * `POST /bulk-sends`: every row is checked now, as the single calls would check it (createForm's body
 * and prefill, sendForm's recipients); a refused row is reported by its number with the contract's
 * error and the others go. The quota must cover every row that goes (402 `quota_exceeded` names how
 * many fit), and is charged for them as the single calls would be. The write is the bulk send, its
 * rows and the first job of the worker, in one transaction: nothing is sent before it commits, and
 * the forms are made and sent by the worker (run-bulk-send.ts).
 */
export async function prepareCreateBulkSend(deps: Deps, p: Partition, input: CreateBulkSendInput, checks: { shape: RowShape; quota?: BulkQuota | undefined }): Promise<PreparedWrite<BulkSendView>> {
  const { template, rows, refused } = await checkBulkRows(deps, p, input, checks.shape);
  const going = rows.length - refused.length;
  if (checks.quota && going > 0) {
    checkQuotaCovers(await checks.quota.callsLeft(), going);
    checks.quota.charge(going * CALLS_PER_ROW);
  }
  const now = isoNow(deps.clock);
  const bulk: BulkSendRow = {
    id: newId('bulkSend'), account_id: p.accountId, mode: p.mode, template_id: template.id,
    // Every row refused: nothing to send, so the bulk send is complete as it is made.
    status: going > 0 ? 'processing' : 'completed', total: rows.length, sent: 0, failed: refused.length,
    created_at: now, updated_at: now, completed_at: going > 0 ? null : now,
  };
  return async (trx) => {
    await insertBulkSend(trx, p, bulk, rows);
    if (going > 0) await enqueue(trx, p, bulkSendRun, { bulk_id: bulk.id }, { now });
    else await recordBulkSendCompleted(trx, p, bulk, now);
    return bulkSendView(bulk, refused);
  };
}

/** Every row of a bulk send checked: the rows as they are stored, and the refused ones with their errors. */
export async function checkBulkRows(deps: Pick<Deps, 'db' | 'clock' | 'templateCache' | 'bulkSendMaxRows'>, p: Partition, input: CreateBulkSendInput, shape: RowShape) {
  const template = await loadTemplate(deps, p, input.template_id);
  if (!template) throw notFound('template', input.template_id, 'template_id');
  const maxRows = deps.bulkSendMaxRows ?? MAX_ROWS.sqlite;
  const raw = 'csv' in input ? rowsOfCsv(input.csv, template.fields.byName, maxRows) : input.rows;
  checkRowCount(raw.length, maxRows);
  const rows: NewBulkRow[] = [];
  const refused: Array<{ row: number; error: RowError }> = [];
  raw.forEach((candidate, i) => {
    const row = i + 1;
    try {
      rows.push({ row, status: 'pending', input: JSON.stringify(checkRow(template, candidate, shape)), error: null });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const error = rowError(err);
      refused.push({ row, error });
      rows.push({ row, status: 'failed', input: null, error: JSON.stringify(error) });
    }
  });
  return { template, rows, refused };
}

/** One row through the single calls' checks; throws the first refusal, as those calls would. */
function checkRow(template: CachedTemplate, candidate: unknown, shape: RowShape): BulkRowInput {
  if (typeof candidate !== 'object' || candidate === null || Array.isArray(candidate)) {
    throw new AppError('parameter_invalid', 'A row must be an object with `recipients`, and optionally `prefill` and `name`.');
  }
  for (const key of Object.keys(candidate)) {
    if (!ROW_KEYS.has(key)) throw new AppError('parameter_unknown', `Received unknown parameter '${key}' in the row; a row has prefill, recipients and name.`, key);
  }
  const { prefill, recipients, name } = candidate as { prefill?: unknown; recipients?: unknown; name?: unknown };
  const created = shape.createForm({ template_id: template.id, ...(prefill !== undefined ? { prefill } : {}), ...(name !== undefined ? { name } : {}) });
  if (created) throw created;
  const sent = shape.sendForm({ recipients });
  if (sent) throw sent;
  // The schemas held: the shapes are the single calls' own.
  const row = { prefill: (prefill ?? {}) as Record<string, unknown>, recipients: recipients as RecipientInput[], ...(name !== undefined ? { name: name as string } : {}) };
  checkPrefill(template.fields, row.prefill);
  const incoming = normaliseRecipients(row.recipients);
  // A row is stored as given until the worker sends it, and sendForm keeps only an access code's scrypt
  // hash: a bulk row takes none rather than keep the code in plain text meanwhile.
  const coded = incoming.findIndex((r) => r.check?.accessCode);
  if (coded >= 0) {
    throw new AppError('parameter_invalid', `recipients[${coded}].auth: a bulk send takes no access_code (the row is kept until it is sent, and a code is kept only hashed). Use email_code or sms_code, or send this form on its own with POST /forms/{id}/send.`, `recipients[${coded}].auth.access_code`);
  }
  // As sendForm refuses it: an approver, cc or viewer on a slot with fields would fail in the worker,
  // after its form was made and charged.
  refuseFieldsOfNonSigners(template.fields.defs, incoming, assignSigners([], incoming));
  return row;
}
