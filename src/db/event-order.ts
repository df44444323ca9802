import { sql } from 'kysely';
import type { Partition } from '../lib/partition.js';
import type { Db, Trx } from './handles.js';

// PostgreSQL commits transactions concurrently, so no number taken while one runs is commit order: an
// event numbered 7 may commit after one numbered 8 that a reader has already listed. Instead an event is
// inserted unnumbered, and the transaction's last statement (transact.ts, after its unit) numbers its
// events from the partition's row in `event_counters`. That row stays locked until the transaction
// commits, and PostgreSQL makes a commit visible before it releases its locks, so the next transaction
// of the partition gets its numbers only once this one can be seen: a reader that has seen number n has
// seen, or will never see, every number below it. The lock is taken last, so it is held for the commit
// alone and never ordered before another lock (no deadlock); it serialises the commits of one partition's
// event-writing transactions, never another partition's. SQLite needs none of this (repositories/events.ts).

const pending = new WeakMap<Db, Map<string, { p: Partition; ids: string[] }>>();

/** Marks an event inserted in `trx` for numbering when the transaction ends. */
export function notePendingEvent(trx: Trx, p: Partition, id: string): void {
  let byPartition = pending.get(trx);
  if (!byPartition) pending.set(trx, (byPartition = new Map()));
  const key = `${p.accountId}\u0000${p.mode}`;
  const entry = byPartition.get(key);
  if (entry) entry.ids.push(id);
  else byPartition.set(key, { p, ids: [id] });
}

/** The last statements of a PostgreSQL transaction that inserted events: one per partition, in a fixed order. */
export async function numberPendingEvents(trx: Db): Promise<void> {
  const byPartition = pending.get(trx);
  if (!byPartition) return;
  pending.delete(trx);
  for (const key of [...byPartition.keys()].sort()) {
    const { p, ids } = byPartition.get(key)!;
    await sql`
      with c as (
        insert into event_counters (account_id, mode, value) values (${p.accountId}, ${p.mode}, ${ids.length})
        on conflict (account_id, mode) do update set value = event_counters.value + excluded.value
        returning value
      )
      update events set seq = c.value - ${ids.length} + o.ord
      from c, unnest(${ids}::text[]) with ordinality as o(id, ord)
      where events.id = o.id`.execute(trx);
  }
}
