import type { Db, Transact } from '../../db/handles.js';
import type { Plan } from '../../db/tables.js';
import { addUsage, findAccountLimits, type AccountLimitsRow, type UsageIncrement } from '../../db/repositories/usage.js';
import { addDailyUsage, type DailyIncrement } from '../../db/repositories/daily-usage.js';
import type { Clock } from '../../lib/clock.js';
import { monthOf } from './policy.js';

/** What the limiter knows of an account: plan, overrides and the month's total as last read. */
export interface AccountLimits {
  readonly plan: Plan;
  /** Calls allowed this month; null: no monthly quota (an unmetered account). */
  readonly monthlyLimit: number | null;
  /** null: each endpoint's default. */
  readonly perMinuteLimit: number | null;
}

interface Entry extends AccountLimits {
  /** The month `dbCalls` belongs to. */
  month: string;
  /** The total in the database at the last refresh (every process's flushed calls). */
  dbCalls: number;
  /** performance.now() of the last read: an account back after a quiet spell is read again first. */
  readAt: number;
}

export interface QuotaOptions {
  flushEveryMs: number;
  /** Each plan's monthly quota (the operator's configuration). */
  monthlyCalls: Readonly<Record<Plan, number>>;
  /** Bound of the accounts remembered (the least recently used are read again when they return). */
  maxAccounts?: number;
  /** An entry older than this is read again before use (default: 10 flush intervals). */
  staleAfterMs?: number;
  log(line: string): void;
}

type Deps = { db: Db; transact: Transact; clock: Clock };

/**
 * The monthly quota without a database round trip per request: calls are counted in memory and
 * added to the database in one batch every `flushEveryMs` (an atomic upsert per account), and the
 * same timer reads back the month totals, plans and overrides of the accounts seen since the last
 * flush — so other processes' calls and `accounts set-limits` apply within about one interval. A
 * crash loses at most the calls of the last interval (undercounting: a paying account is never
 * blocked wrongly). Only an account's first call in this process waits for one read.
 */
export class QuotaCounter {
  private readonly accounts = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<Entry>>();
  /** Calls not yet written, by `account\tmonth`. */
  private pending = new Map<string, number>();
  /** Calls being written by the running flush. */
  private readonly inflight = new Map<string, number>();
  private readonly seen = new Set<string>();
  /** Calls and 429s per `account\tday` not yet written (the dashboard's usage chart, issue 24). */
  private daily = new Map<string, { calls: number; limited: number }>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private abandoned = false;

  constructor(
    private readonly deps: Deps,
    private readonly opts: QuotaOptions,
  ) {}

  start(): void {
    if (this.timer) return;
    // A tick while a flush is still running is skipped: slow writes never pile up flushes.
    this.timer = setInterval(() => {
      if (!this.flushing) void this.flush();
    }, this.opts.flushEveryMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what is counted (a graceful shutdown loses nothing). */
  async stop(): Promise<void> {
    this.stopTimer();
    await this.flush();
  }

  /** Stops counting to the database without writing what is pending, as a crash would (tests). */
  abandon(): void {
    this.stopTimer();
    this.abandoned = true;
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The account's limits: synchronous once known, one read the first time. */
  limits(accountId: string): AccountLimits | Promise<AccountLimits> {
    this.seen.add(accountId);
    const hit = this.accounts.get(accountId);
    // Accounts in use are refreshed by every flush; one that was quiet is read again before it is
    // judged, so a plan change or `set-limits` never waits for its next call to apply.
    // No reordering here: every flush re-inserts the accounts in use (store), so the map's insertion
    // order is already close to recency order for the bound.
    if (hit && performance.now() - hit.readAt <= (this.opts.staleAfterMs ?? this.opts.flushEveryMs * 10)) return hit;
    // While a flush is writing this account's calls, a read may already see them although they are
    // still in `inflight` (used() adds both): the calls would count twice until the flush ends, a false
    // 429 at the boundary. So the reload waits: a known entry is used as it is (the next call after
    // the flush reads again), an unknown one (evicted) is read once the flush is done.
    const flushing = this.flushing;
    const busy = flushing !== undefined && this.hasInflight(accountId);
    if (hit && busy) return hit;
    let p = this.loading.get(accountId);
    if (!p) {
      const month = monthOf(this.deps.clock.now().getTime());
      const after = busy ? flushing.catch(() => undefined) : Promise.resolve();
      p = after.then(() => findAccountLimits(this.deps.db, [accountId], month)).then(
        (rows) => {
          this.loading.delete(accountId);
          const row = rows[0];
          if (!row) throw new Error(`account ${accountId} is not in the database`);
          return this.store(row, month);
        },
        (err: unknown) => {
          this.loading.delete(accountId);
          throw err;
        },
      );
      this.loading.set(accountId, p);
    }
    return p;
  }

  private hasInflight(accountId: string): boolean {
    const prefix = `${accountId}\t`;
    for (const k of this.inflight.keys()) if (k.startsWith(prefix)) return true;
    return false;
  }

  /** Calls of the account in `month`: the database's total at the last refresh plus this process's unwritten ones. */
  used(accountId: string, month: string): number {
    const e = this.accounts.get(accountId);
    const key = `${accountId}\t${month}`;
    return (e && e.month === month ? e.dbCalls : 0) + (this.pending.get(key) ?? 0) + (this.inflight.get(key) ?? 0);
  }

  /** `calls`: more than one when a call does the work of several (a bulk send's rows, issue 42). */
  count(accountId: string, month: string, day?: string, calls = 1): void {
    const key = `${accountId}\t${month}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + calls);
    if (day !== undefined) this.dayEntry(accountId, day).calls += calls;
  }

  /** A request refused with 429 (never counted toward the quota; shown per day on the dashboard). */
  countRefused(accountId: string, day: string): void {
    this.dayEntry(accountId, day).limited++;
  }

  private dayEntry(accountId: string, day: string): { calls: number; limited: number } {
    const key = `${accountId}\t${day}`;
    let e = this.daily.get(key);
    if (!e) this.daily.set(key, (e = { calls: 0, limited: 0 }));
    return e;
  }

  /**
   * Takes back one call counted by `count` (a replayed idempotent answer: the call it repeats was
   * counted once already), from the month and from the day, so the dashboard's daily chart adds up to
   * the month's total. If the call was flushed meanwhile, the negative pending count subtracts it at
   * the next flush.
   */
  uncount(accountId: string, month: string, day: string): void {
    const key = `${accountId}\t${month}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) - 1);
    this.dayEntry(accountId, day).calls--;
  }

  /** Writes the pending calls in one transaction, then refreshes the accounts seen since the last flush. */
  flush(): Promise<void> {
    // One flush at a time; a caller arriving during one waits for it and then runs its own.
    const run = (this.flushing ?? Promise.resolve()).then(() => this.flushOnce());
    const tracked = run.finally(() => {
      if (this.flushing === tracked) this.flushing = undefined;
    });
    this.flushing = tracked;
    return tracked;
  }

  private async flushOnce(): Promise<void> {
    if (this.abandoned) return;
    const batch = this.pending;
    this.pending = new Map();
    for (const [k, n] of batch) this.inflight.set(k, (this.inflight.get(k) ?? 0) + n);
    const now = this.deps.clock.now();
    const increments: UsageIncrement[] = [...batch].filter(([, calls]) => calls !== 0).map(([k, calls]) => {
      const [accountId = '', month = ''] = k.split('\t');
      return { accountId, month, calls };
    });
    const dailyBatch = this.daily;
    this.daily = new Map();
    // A call and its refund in the same interval cancel out: nothing to write for that day.
    const days: DailyIncrement[] = [...dailyBatch].filter(([, c]) => c.calls !== 0 || c.limited !== 0).map(([k, c]) => {
      const [accountId = '', day = ''] = k.split('\t');
      return { accountId, day, calls: c.calls, limited: c.limited };
    });
    let written = false;
    try {
      if (increments.length > 0 || days.length > 0) {
        await this.deps.transact(async (trx) => {
          if (increments.length > 0) await addUsage(trx, increments, now.toISOString());
          if (days.length > 0) await addDailyUsage(trx, days, now.toISOString());
        });
      }
      written = true;
    } catch (err) {
      this.opts.log(`could not record API usage (${(err as Error).message}); retrying with the next flush`);
      for (const d of days) {
        const e = this.dayEntry(d.accountId, d.day);
        e.calls += d.calls;
        e.limited += d.limited;
      }
    }
    const month = monthOf(now.getTime());
    const ids = new Set([...this.seen, ...increments.map((i) => i.accountId)].filter((id) => this.accounts.has(id)));
    this.seen.clear();
    let rows: AccountLimitsRow[] | undefined;
    try {
      rows = ids.size > 0 ? await readInChunks(this.deps.db, [...ids], month) : [];
    } catch (err) {
      this.opts.log(`could not read API usage (${(err as Error).message}); using the last totals`);
    }
    // Synchronously from here: the totals and the in-flight counts change together, never counted twice.
    for (const [k, n] of batch) {
      const left = (this.inflight.get(k) ?? 0) - n;
      if (left > 0) this.inflight.set(k, left);
      else this.inflight.delete(k);
      if (!written) this.pending.set(k, (this.pending.get(k) ?? 0) + n);
    }
    if (rows) for (const row of rows) this.store(row, month);
    else if (written) {
      // The write landed but the read did not: keep the calls in the local totals.
      for (const inc of increments) {
        const e = this.accounts.get(inc.accountId);
        if (e && e.month === inc.month) e.dbCalls += inc.calls;
      }
    }
  }

  private store(row: AccountLimitsRow, month: string): Entry {
    const entry: Entry = {
      plan: row.plan,
      monthlyLimit: row.unmetered ? null : (row.monthly_limit ?? this.opts.monthlyCalls[row.plan]),
      perMinuteLimit: row.per_minute_limit,
      month,
      dbCalls: row.calls,
      readAt: performance.now(),
    };
    this.accounts.delete(row.id);
    this.accounts.set(row.id, entry);
    const max = this.opts.maxAccounts ?? 100_000;
    if (this.accounts.size > max) {
      const oldest = this.accounts.keys().next().value;
      if (oldest !== undefined) this.accounts.delete(oldest);
    }
    return entry;
  }
}

// SQLite allows a few thousand bound parameters per statement; stay well under.
async function readInChunks(db: Db, ids: string[], month: string): Promise<AccountLimitsRow[]> {
  const out: AccountLimitsRow[] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(...(await findAccountLimits(db, ids.slice(i, i + 500), month)));
  return out;
}
