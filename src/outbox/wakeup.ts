import { PostgresAdapter, sql } from 'kysely';
import { durableTransact, type Transact, type Trx } from '../db/handles.js';
import { ScopedContext } from '../lib/scoped-context.js';

// How a worker learns of new jobs promptly without polling hard: in this process, a signal once the
// transaction that wrote them has committed (never before: a worker woken early would find nothing and
// go back to sleep); across processes on PostgreSQL, NOTIFY sent inside that transaction, which
// PostgreSQL delivers only at its commit. A slow poll in the dispatcher is the backstop for both.

/** The PostgreSQL channel of a schema's job notifications (tests give each run its own schema). */
export function jobChannel(schema: string): string {
  return `formsign_jobs_${schema}`;
}

const unitState = new ScopedContext<{ enqueued: boolean }>();
const notified = new WeakSet<Trx>();

/** Called by enqueue inside a unit of work. */
export async function noteEnqueued(trx: Trx): Promise<void> {
  const state = unitState.get();
  if (state) state.enqueued = true;
  if (notified.has(trx) || !(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  notified.add(trx);
  await sql`select pg_notify(${sql.lit('formsign_jobs_')} || current_schema(), '')`.execute(trx);
}

/** A transact that calls `signal` after each commit of a unit that enqueued a job. */
export function transactWithWakeup(transact: Transact, signal: () => void): Transact {
  return durableTransact(async (unit) => {
    const state = { enqueued: false };
    const value = await transact((trx) => unitState.run(state, () => unit(trx)));
    if (state.enqueued) signal();
    return value;
  });
}

/** A late-bound signal: the transact is built before the worker that listens to it. */
export class WakeSignal {
  private listener: (() => void) | undefined;

  readonly fire = (): void => this.listener?.();

  listen(listener: (() => void) | undefined): void {
    this.listener = listener;
  }
}
