import { sql, type Kysely, type RawBuilder, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type { Db } from './database.js';
import { preparedWrite } from './prepared-write.js';
import type { Database } from './tables.js';
import type { Trx } from './transact.js';

declare const oneStatementBrand: unique symbol;
declare const boundBrand: unique symbol;

/**
 * PostgreSQL: a pool on which a write is a single statement, its own transaction (no BEGIN, no
 * COMMIT). Only `settleInOneStatement` (repositories/outbox.ts) among the repository functions takes
 * one; the brand keeps a OneStatementDb from being passed where a transaction (`Trx`) is expected.
 */
export type OneStatementDb = Kysely<Database> & { readonly [oneStatementBrand]: true };

export const asOneStatementDb = (db: Db): OneStatementDb => db as OneStatementDb;

/**
 * The tables an outcome may update: never `outbox`, since the statement it joins marks an outbox row
 * done, and one statement may not update a row twice.
 */
export type UpdatableByOutcome = Exclude<keyof Database & string, 'outbox'>;
export type UpdateOf<T extends UpdatableByOutcome> = UpdateQueryBuilder<Database, T, T, UpdateResult>;

/**
 * One UPDATE of a job's outcome, declared once at module level under a unique name. It runs either on
 * its own inside the transaction that marks the job done (`run`), or — on PostgreSQL — as one more
 * sub-statement of the single statement that marks the job done and claims the next
 * (`settleInOneStatement`): the same built statement either way.
 *
 * The two paths agree only for steps that do not depend on each other: in one statement every
 * sub-statement sees the tables as they were before it, while in a transaction each sees the ones
 * before. So an outcome's updates must touch different tables (`outcomeUpdates` refuses two of one
 * table), and none may read a table another one writes.
 *
 * `build` follows preparedWrite's rules: arguments are passed on as values, every one always given,
 * and read by name (the arguments object it gets in the one-statement path only answers reads).
 */
export interface OutcomeUpdate<A extends object> {
  readonly name: string;
  readonly table: UpdatableByOutcome;
  /** The update limited to where `guard` holds, as a sub-statement of a WITH. */
  guarded(db: Db, args: A, guard: RawBuilder<boolean>): RawBuilder<object>;
  /** Runs the update alone in `trx`; resolves with the number of rows it changed. */
  run(trx: Trx, args: A): Promise<number>;
  /** The update with its arguments, as a step of a job's outcome (the only way to make one). */
  with(args: A): BoundUpdate;
}

export interface BoundUpdate {
  readonly update: OutcomeUpdate<object>;
  readonly args: object;
  readonly [boundBrand]: true;
}

const NAME = /^[a-z0-9-]+$/;
const byName = new Map<string, OutcomeUpdate<object>>();

/** The update declared under `name` (the one-statement settle compiles its statement from the names). */
export function outcomeUpdateNamed(name: string): OutcomeUpdate<object> {
  const u = byName.get(name);
  if (!u) throw new Error(`No outcome update is named "${name}".`);
  return u;
}

export function outcomeUpdate<T extends UpdatableByOutcome, A extends object>(name: string, table: T, build: (db: Db, args: A) => UpdateOf<T>): OutcomeUpdate<A> {
  if (!NAME.test(name)) throw new Error(`An outcome update's name is lower-case letters, digits and "-": "${name}".`);
  if (byName.has(name)) throw new Error(`An outcome update named "${name}" is already declared; names key compiled statements and must be unique.`);
  const write = preparedWrite(build);
  const update: OutcomeUpdate<A> = {
    name,
    table,
    guarded: (db, args, guard) => sql<object>`(${build(db, args).where(guard)})`,
    run: async (trx, args) => Number((await write(trx, args)).numAffectedRows ?? 0n),
    with: (args) => {
      // Here, where the caller is, rather than when the statement runs.
      for (const [key, value] of Object.entries(args)) if (value === undefined) throw new Error(`Outcome update ${name}: argument ${key} is undefined.`);
      return { update: update as unknown as OutcomeUpdate<object>, args } as unknown as BoundUpdate;
    },
  };
  byName.set(name, update as unknown as OutcomeUpdate<object>);
  return update;
}

/** Refuses the steps of one outcome that could disagree between the two paths (see OutcomeUpdate). */
export function assertIndependent(updates: readonly BoundUpdate[]): void {
  const seen = new Set<string>();
  for (const u of updates) {
    if (seen.has(u.update.table)) throw new Error(`An outcome updates ${u.update.table} twice; its steps must touch different tables.`);
    seen.add(u.update.table);
  }
}
