import { findAccount, updateAccount } from '../../db/repositories/accounts.js';
import { accountsWithRetention, FINISHED_STATUSES, formsPastRetention } from '../../db/repositories/form-retention.js';
import { lockForm } from '../../db/repositories/forms.js';
import { isoNow } from '../../lib/clock.js';
import type { Partition } from '../../lib/partition.js';
import type { JobHandler } from '../../outbox/job.js';
import type { DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import { purgeFinishedForm, purgeRefusal } from './delete-form.js';
import { formFields } from './read-forms.js';
import { renderCacheKeyOf } from './render-form-pdf.js';

export const RETENTION_MIN_DAYS = 1;
export const RETENTION_MAX_DAYS = 3650;
const DAY_MS = 86_400_000;
/** Forms read per query; a run goes on until none is due (or RUN_CAP), each form its own transaction. */
const BATCH = 100;
const RUN_CAP = 10_000;

/** The one rule for a retention value: whole days 1–3650, or null (`off`: forms are kept). */
export function checkRetentionDays(raw: unknown, param = 'retention_days'): number | null {
  if (raw === null || raw === 'off') return null;
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < RETENTION_MIN_DAYS || n > RETENTION_MAX_DAYS) {
    throw new AppError('parameter_invalid', `retention_days must be a whole number of days from ${RETENTION_MIN_DAYS} to ${RETENTION_MAX_DAYS}, or off (null) to keep forms.`, param);
  }
  return n;
}

export interface RetentionView {
  object: 'retention_settings';
  account_id: string;
  retention_days: number | null;
}

export async function getRetention(deps: Pick<DomainDeps, 'db'>, accountId: string): Promise<RetentionView> {
  const account = await findAccount(deps.db, accountId);
  if (!account) throw notFound('account', accountId);
  return { object: 'retention_settings', account_id: accountId, retention_days: account.retention_days ?? null };
}

/** `formsign accounts set-retention ID DAYS|off` and the dashboard's Settings. */
export async function setRetention(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>, accountId: string, raw: unknown): Promise<RetentionView> {
  const days = checkRetentionDays(raw);
  if (!(await deps.transact((trx) => updateAccount(trx, accountId, { retention_days: days, updated_at: isoNow(deps.clock) })))) throw notFound('account', accountId);
  return getRetention(deps, accountId);
}

type RetentionDeps = Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'templateCache' | 'pdfRenderer' | 'renderCache'>;

/**
 * The retention sweep (daily `forms.retention` job): every finished form that finished more than its
 * account's `retention_days` ago and is not on legal hold is purged as DELETE purges it (tombstone,
 * `form.deleted`, files by the `form.purge` job). Each form is its own transaction that checks the
 * form again under its lock, so a run killed midway leaves every form either purged or untouched and
 * the next run continues, and two runs never purge a form twice. Returns how many it purged.
 */
export async function purgePastRetention(deps: RetentionDeps): Promise<number> {
  const nowMs = deps.clock.now().getTime();
  let purged = 0;
  for (const account of await accountsWithRetention(deps.db)) {
    const cutoff = new Date(nowMs - account.retention_days * DAY_MS).toISOString();
    const skipped = new Set<string>();
    for (;;) {
      const due = (await formsPastRetention(deps.db, account.id, cutoff, BATCH + skipped.size)).filter((f) => !skipped.has(f.id));
      if (due.length === 0 || purged >= RUN_CAP) break;
      for (const form of due) {
        const p: Partition = { accountId: form.account_id, mode: form.mode };
        const renderKey = renderCacheKeyOf(deps, p, form, await formFields(deps, p, form));
        const now = isoNow(deps.clock);
        const done = await deps.transact(async (trx) => {
          const row = await lockForm(trx, p, form.id, now);
          // The same rule as DELETE (purgeRefusal: no hold, no seal being made), and only a finished form.
          if (!row || purgeRefusal(row) || !(FINISHED_STATUSES as readonly string[]).includes(row.status)) return false;
          await purgeFinishedForm(trx, p, row, renderKey, now);
          return true;
        });
        if (done) purged++;
        else skipped.add(form.id);
      }
    }
  }
  return purged;
}

export function formsRetentionHandler(deps: RetentionDeps, onPurged: (count: number) => void): JobHandler<Record<string, never>> {
  return {
    async run() {
      onPurged(await purgePastRetention(deps));
    },
  };
}
