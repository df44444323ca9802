import { insertActivity } from '../../db/repositories/activity.js';
import type { Transact, Trx } from '../../db/handles.js';
import type { ActivityKind } from '../../lib/activity-kinds.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { PreparedWrite } from '../prepared-write.js';

// The account activity log (issue 39 item 5): one function records an entry, inside the transaction
// of the change it records, so the log has an entry exactly when the change happened.

/** Who did it: a signed-in member, or no one (the operator's CLI; a sign-in attempt by address). */
export interface Actor {
  readonly userId: string | null;
  readonly email: string | null;
  readonly ip: string | null;
}

/** The operator at the command line: no member, no address. */
export const OPERATOR: Actor = { userId: null, email: null, ip: null };

export interface ActivityEntry {
  readonly accountId: string;
  readonly actor: Actor;
  readonly kind: ActivityKind;
  /** What it was done to, as a person reads it (a member's address, a key's display, a webhook's URL). */
  readonly target?: string | null;
  readonly detail?: Readonly<Record<string, string | number | boolean | null>>;
}

/** Records one entry in the caller's transaction. */
export async function recordActivity(trx: Trx, deps: { clock: Clock }, entry: ActivityEntry): Promise<void> {
  await insertActivity(trx, {
    id: newId('activity'),
    account_id: entry.accountId,
    actor_id: entry.actor.userId,
    actor_email: entry.actor.email,
    kind: entry.kind,
    target: entry.target ?? null,
    ip: entry.actor.ip,
    detail: entry.detail ? JSON.stringify(entry.detail) : null,
    created_at: deps.clock.now().toISOString(),
  });
}

/**
 * The same deps with a `transact` that also records an entry in the first transaction that commits:
 * a use case written without the log (a settings change, a webhook's create) gets its entry in its
 * own write's transaction, without knowing about it. A unit that fails records nothing. Given a
 * function, the entry is made from what the unit returned (null: nothing changed, nothing recorded).
 */
export function withActivity<D extends { transact: Transact; clock: Clock }>(deps: D, entry: ActivityEntry | ((result: unknown) => ActivityEntry | null)): D {
  let recorded = false;
  const transact = (async <T>(unit: (trx: Trx) => Promise<T>): Promise<T> => {
    const first = !recorded;
    const result = await deps.transact(async (trx) => {
      const r = await unit(trx);
      const e = typeof entry === 'function' ? entry(r) : entry;
      if (first && e) await recordActivity(trx, deps, e);
      return r;
    });
    recorded = true;
    return result;
  }) as Transact;
  return { ...deps, transact };
}

/** A prepared write that also records an entry, made from what it returns, in its own transaction. */
export async function loggedWrite<R>(deps: { clock: Clock }, prepared: Promise<PreparedWrite<R>>, entry: (result: R) => ActivityEntry): Promise<PreparedWrite<R>> {
  const write = await prepared;
  return async (trx) => {
    const result = await write(trx);
    await recordActivity(trx, deps, entry(result));
    return result;
  };
}
