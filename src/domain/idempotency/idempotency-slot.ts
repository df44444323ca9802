import { claimIdempotencyKey, releaseIdempotencyKey, storeIdempotentAnswer } from '../../db/repositories/idempotency-keys.js';
import type { Trx } from '../../db/handles.js';
import type { IdempotencyKeyRow } from '../../db/tables.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';

/** Keys are kept 24 hours (as Stripe keeps them); the sweep deletes them after. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 3600 * 1000;

/**
 * How long a request may hold its key before another request with the same key and body may take it
 * over. A claim is only left behind by a process that died mid-request, and since an answer is stored
 * in the transaction of its write, a claim with no answer means no write happened: running the request
 * again is safe. Longer than any request runs (PDF work and model calls are bounded well below it); if
 * one ever did outlast it, its answer could no longer be stored and its write rolls back (see store).
 */
export const IDEMPOTENCY_LEASE_MS = 60_000;

/** What a request answered, as it is stored and replayed: status, the headers that matter, the body. */
export interface StoredAnswer {
  readonly status: number;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What becomes of a request that arrives with a key. */
export type SlotOutcome =
  | { readonly kind: 'run' }
  | { readonly kind: 'replay'; readonly answer: StoredAnswer };

type SlotDeps = Pick<DomainDeps, 'transact' | 'transactReplayable' | 'clock'>;

/**
 * The request-scoped hold on one `Idempotency-Key` of a partition. `claim` decides whether the request
 * runs, replays the stored answer, or is refused (409); a request that runs then has its answer written
 * by `store` inside the transaction of its write — so a crash leaves both or neither — or, when it wrote
 * nothing (a refusal, a read-only operation), by `storeAlone`; a 5xx gives the key back (`release`).
 */
export class IdempotencySlot {
  private held = false;
  private answered = false;

  constructor(
    private readonly deps: SlotDeps,
    readonly partition: Partition,
    readonly key: string,
    readonly requestHash: string,
    /** The request id: it names the holder of the key. */
    readonly owner: string,
  ) {}

  /** True while this request holds the key and has not stored its answer. */
  get open(): boolean {
    return this.held && !this.answered;
  }

  async claim(): Promise<SlotOutcome> {
    const nowMs = this.deps.clock.now().getTime();
    // Bookkeeping a power failure may only undo: a lost claim leaves no answer behind, and the write it
    // would guard commits after it (the same log, flushed in order), so it is never lost alone.
    const result = await this.deps.transactReplayable((trx) =>
      claimIdempotencyKey(trx, this.partition, {
        key: this.key,
        requestHash: this.requestHash,
        owner: this.owner,
        now: new Date(nowMs).toISOString(),
        leaseBefore: new Date(nowMs - IDEMPOTENCY_LEASE_MS).toISOString(),
        expiredBefore: new Date(nowMs - IDEMPOTENCY_RETENTION_MS).toISOString(),
      }),
    );
    if (result.claimed) {
      this.held = true;
      return { kind: 'run' };
    }
    return refusalOrReplay(result.row, this.requestHash);
  }

  /**
   * Writes the answer in the caller's transaction (the one that makes the write it answers). A request
   * that lost its key (it outlived the lease and another took it) throws, rolling its write back. The
   * slot stays open until the caller says the transaction committed (`committed`): a commit that fails
   * takes the stored answer back with it, and the key must then be given back like any 5xx's (issue 35).
   */
  async store(trx: Trx, answer: StoredAnswer): Promise<void> {
    if (!this.open) throw new Error('IdempotencySlot.store: this request does not hold its key, or already stored its answer');
    if (!(await storeIdempotentAnswer(trx, this.partition, this.key, this.owner, toRow(answer)))) {
      throw inUse();
    }
  }

  /** The transaction that `store` wrote into has committed: the answer is the key's for good. */
  committed(): void {
    this.answered = true;
  }

  /** The answer of a request that wrote nothing, in a transaction of its own, before it is sent. */
  async storeAlone(answer: StoredAnswer): Promise<void> {
    if (!this.open) return;
    await this.deps.transact((trx) => storeIdempotentAnswer(trx, this.partition, this.key, this.owner, toRow(answer)));
    this.answered = true;
  }

  /** Gives the key back: the request failed in a way worth retrying (5xx), so nothing is stored. */
  async release(): Promise<void> {
    if (!this.open) return;
    this.held = false;
    await this.deps.transactReplayable((trx) => releaseIdempotencyKey(trx, this.partition, this.key, this.owner));
  }
}

function toRow(a: StoredAnswer): { status: number; headers: string; body: string } {
  return { status: a.status, headers: JSON.stringify(a.headers), body: a.body };
}

function inUse(): AppError {
  return new AppError('idempotency_key_in_use', 'Another request with this Idempotency-Key is in progress; retry after it has finished to get its answer.', 'Idempotency-Key');
}

function refusalOrReplay(row: IdempotencyKeyRow, requestHash: string): SlotOutcome {
  if (row.request_hash !== requestHash) {
    throw new AppError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request (method, path or body); use a new key for a new request.', 'Idempotency-Key');
  }
  if (row.status !== 'done' || row.response_status === null || row.response_body === null) throw inUse();
  return { kind: 'replay', answer: { status: row.response_status, headers: JSON.parse(row.response_headers ?? '{}') as Record<string, string>, body: row.response_body } };
}
