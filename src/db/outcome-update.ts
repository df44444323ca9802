import { sql, type Kysely, type RawBuilder, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type { Db } from './database.js';
import { preparedWrite } from './prepared-write.js';
import type { Database } from './tables.js';
import type { Trx } from './transact.js';

declare const oneStatementBrand: unique symbol;

/**
 * PostgreSQL: a pool on which a write is a single statement, its own transaction (no BEGIN, no
 * COMMIT: two round trips fewer). Only `settleInOneStatement` (repositories/outbox.ts) takes one, so a
 * write of several statements cannot be issued through it by a repository call.
 */
export type OneStatementDb = Kysely<Database> & { readonly [oneStatementBrand]: true };

export const asOneStatementDb = (db: Db): OneStatementDb => db as OneStatementDb;

/**
 * An UPDATE of table T of our schema, returning nothing. Never of `outbox`: the statement it joins
 * marks an outbox row done, and one statement may not update a row twice.
 */
export type UpdatableByOutcome = Exclude<keyof Database & string, 'outbox'>;
export type UpdateOf<T extends UpdatableByOutcome> = UpdateQueryBuilder<Database, T, T, UpdateResult>;

/**
 * One UPDATE of a job's outcome, declared once at module level under a unique name. It runs either on
 * its own inside the transaction that marks the job done (`run`), or — on PostgreSQL — as one more
 * sub-statement of the single statement that marks the job done and claims the next
 * (`settleInOneStatement`). Both run the same built statement, so the two paths cannot drift apart.
 *
 * `build` follows preparedWrite's rules: arguments are passed on as values, every one always given.
 */
export interface OutcomeUpdate<A extends object> {
  readonly name: string;
  /** The update limited to where `guard` holds, as a sub-statement of a WITH (returns 1 per row changed). */
  guarded(db: Db, args: A, guard: RawBuilder<boolean>): RawBuilder<{ one: number }>;
  /** Runs the update alone in `trx`; resolves with the number of rows it changed. */
  run(trx: Trx, args: A): Promise<number>;
  /** The update with its arguments, as a step of a job's outcome. */
  with(args: A): BoundUpdate;
}

export interface BoundUpdate {
  readonly update: OutcomeUpdate<object>;
  readonly args: object;
}

const byName = new Map<string, OutcomeUpdate<object>>();

/** The update declared under `name` (the fused settle compiles its statement from the names). */
export function outcomeUpdateNamed(name: string): OutcomeUpdate<object> {
  const u = byName.get(name);
  if (!u) throw new Error(`No outcome update is named "${name}".`);
  return u;
}

export function outcomeUpdate<T extends UpdatableByOutcome, A extends object>(name: string, build: (db: Db, args: A) => UpdateOf<T>): OutcomeUpdate<A> {
  if (byName.has(name)) throw new Error(`An outcome update named "${name}" is already declared; names key compiled statements and must be unique.`);
  if (name.includes('+') || name.includes('.')) throw new Error(`An outcome update's name may not contain "+" or ".": "${name}".`);
  const write = preparedWrite(build);
  const update: OutcomeUpdate<A> = {
    name,
    guarded: (db, args, guard) => sql<{ one: number }>`(${build(db, args).where(guard).returning(sql<number>`1`.as('one'))})`,
    run: async (trx, args) => Number((await write(trx, args)).numAffectedRows ?? 0n),
    with: (args) => ({ update: update as unknown as OutcomeUpdate<object>, args }),
  };
  byName.set(name, update as unknown as OutcomeUpdate<object>);
  return update;
}
