import { completeBulkSend, countBulkRow, failPendingBulkRows, findBulkSend, listBulkRows, setBulkRowForm, settleBulkRow } from '../../db/repositories/bulk-sends.js';
import type { Trx } from '../../db/handles.js';
import type { BulkSendRowRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import type { Partition } from '../../lib/partition.js';
import { enqueue } from '../../outbox/enqueue.js';
import type { JobHandler } from '../../outbox/job.js';
import { bulkSendRun } from '../../outbox/jobs/bulk-send-run.job.js';
import type { PayloadOf } from '../../outbox/registry.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';
import { prepareCreateForm } from '../forms/create-form.js';
import { parseJson } from '../json.js';
import { prepareSendForm } from '../sending/send-form.js';
import { rowError, type BulkRowInput } from './bulk-rules.js';
import { recordBulkSendCompleted } from './record-bulk-event.js';

type RunDeps = Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'templateCache' | 'links' | 'baseUrl'>;

/**
 * Rows one run takes before it hands the rest to the next run, which queues behind the jobs due before
 * it (the invitations of this run among them): a few seconds of work, well inside the job's timeout.
 */
const BATCH = 200;
/**
 * Rows in flight at once: their transactions share SQLite's group commits and PostgreSQL's pool. Eight
 * halves a row's cost against four (measured, 200 rows) while a shared commit stays short.
 */
const PARALLEL = 8;

/** Another runner moved the row first (a job claimed again after its worker died): this one writes nothing. */
class RowTaken extends Error {}

/**
 * The `bulk_send.run` job: the next batch of pending rows, each made into a form and sent by the very
 * use cases `createForm` and `sendForm` run, in two transactions that each move the row:
 * 1. the form and its `form.created` with the row's `form_id` (only if it had none);
 * 2. the send (recipients, messages and their delivery jobs, `form.sent`) with the row settled `sent`
 *    (only if it was pending), its bulk send's count, and — for the last row — `bulk_send.completed`.
 * A kill -9 between them leaves a row with its form and unsent: the next run sends that form. A row
 * the use cases refuse (the template deleted meanwhile, say) is settled `failed` with the contract's
 * error; anything else (the database away) fails the job, which is retried and resumes.
 */
export function bulkSendRunHandler(deps: RunDeps): JobHandler<PayloadOf<'bulk_send.run'>> {
  return {
    async run(payload, ctx) {
      const p = ctx.partition;
      const bulk = await findBulkSend(deps.db, p, payload.bulk_id);
      if (!bulk) return;
      const rows = await listBulkRows(deps.db, p, bulk.id, { afterRow: 0, limit: BATCH, status: 'pending' });
      for (let i = 0; i < rows.length; i += PARALLEL) {
        ctx.signal.throwIfAborted();
        await Promise.all(rows.slice(i, i + PARALLEL).map((r) => runRow(deps, p, bulk.template_id, r)));
      }
      if (rows.length < BATCH) return;
      const now = isoNow(deps.clock);
      // The next run is due as of this run's start, so it is claimed ahead of the invitations this run
      // queued (due later): with run_at now it would wait for every one of them, and rows and messages
      // would take turns instead of flowing side by side. It still holds one slot at a time.
      return async (trx) => {
        await enqueue(trx, p, bulkSendRun, payload, { now, runAt: ctx.startedAt.toISOString() });
      };
    },
    async failed(trx, payload, ctx, failure) {
      if (!failure.dead) return;
      // The worker gave up: the rows left are failed, so the bulk send still completes and says so.
      const now = isoNow(deps.clock);
      const error = JSON.stringify({ code: 'internal_error', message: `The row could not be sent: ${failure.error}` });
      if ((await failPendingBulkRows(trx, ctx.partition, payload.bulk_id, error, now)) > 0) await completeIfDone(trx, ctx.partition, payload.bulk_id, now);
    },
  };
}

async function runRow(deps: RunDeps, p: Partition, templateId: string, row: BulkSendRowRow): Promise<void> {
  const input = JSON.parse(row.input ?? '{}') as BulkRowInput;
  try {
    let formId = row.form_id;
    if (formId === null) formId = await createRowForm(deps, p, templateId, row, input);
    const send = await prepareSendForm(deps, p, formId, { recipients: input.recipients });
    await deps.transact(async (trx) => {
      const now = isoNow(deps.clock);
      if (!(await settleBulkRow(trx, p, row.bulk_id, row.row, { status: 'sent', error: null }, now))) throw new RowTaken();
      await send(trx);
      await countAndComplete(trx, p, row.bulk_id, 'sent', now);
    });
  } catch (err) {
    if (err instanceof RowTaken) return;
    // A refusal of the row's own (4xx) fails the row; an outage (5xx, 429, anything else) fails the
    // job, whose retry takes the row up again.
    if (!(err instanceof AppError) || err.status >= 500 || err.status === 429) throw err;
    const error = JSON.stringify(rowError(err));
    await deps.transact(async (trx) => {
      const now = isoNow(deps.clock);
      if (await settleBulkRow(trx, p, row.bulk_id, row.row, { status: 'failed', error }, now)) await countAndComplete(trx, p, row.bulk_id, 'failed', now);
    });
  }
}

/** Step 1: the row's form, recorded on the row in the same transaction; RowTaken when it had one already. */
async function createRowForm(deps: RunDeps, p: Partition, templateId: string, row: BulkSendRowRow, input: BulkRowInput): Promise<string> {
  const create = await prepareCreateForm(deps, p, { template_id: templateId, prefill: input.prefill, name: input.name });
  return deps.transact(async (trx) => {
    const { form } = await create(trx);
    const formId = parseJson(form).id;
    if (!(await setBulkRowForm(trx, p, row.bulk_id, row.row, formId, isoNow(deps.clock)))) throw new RowTaken();
    return formId;
  });
}

async function countAndComplete(trx: Trx, p: Partition, bulkId: string, outcome: 'sent' | 'failed', now: string): Promise<void> {
  const c = await countBulkRow(trx, p, bulkId, outcome, now);
  if (c && c.sent + c.failed >= c.total) await completeIfDone(trx, p, bulkId, now);
}

async function completeIfDone(trx: Trx, p: Partition, bulkId: string, now: string): Promise<void> {
  const bulk = await findBulkSend(trx, p, bulkId);
  if (!bulk || Number(bulk.sent) + Number(bulk.failed) < Number(bulk.total)) return;
  if (await completeBulkSend(trx, p, bulkId, now)) await recordBulkSendCompleted(trx, p, { ...bulk, status: 'completed', completed_at: now, updated_at: now }, now);
}
