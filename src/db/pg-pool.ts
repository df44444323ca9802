import type pg from 'pg';
import { loadOnFirstUse } from '../lib/load-on-first-use.js';

// Loaded when the first PostgreSQL connection is made: on SQLite (and for every SQLite CLI call) pg
// and the fetch implementation it touches at load (undici, through its Response check) cost ~0.1 s.
const loadPg = loadOnFirstUse<typeof pg>('pg');

// Every PostgreSQL connection the process opens is made here, so each one has an 'error' listener by
// construction. node-postgres emits 'error' on a client whose server connection ends (a restart, a
// failover, pg_terminate_backend, a pooler restart) and re-emits it on the pool when the client was
// idle; an 'error' with no listener ends the process. Here it is reported (a warning and a count),
// the pool drops the broken client and opens a new one on next use, and what a request sees is a
// `DatabaseUnavailableError`, which the HTTP layer answers 503 with Retry-After.

/** Which connections an error came from, as /metrics labels it. */
export type PgConnectionName = 'main' | 'replayable' | 'listener';

/** Called once per connection that fails or is ended by the server. */
export type OnConnectionError = (connection: PgConnectionName, err: Error) => void;

/** The database could not be reached, or dropped the connection mid-statement: retrying later may succeed. */
export class DatabaseUnavailableError extends Error {
  /** What http/database-busy.ts recognises (the HTTP layer does not import this one). */
  readonly code = 'FORMSIGN_DB_UNAVAILABLE';
  constructor(override readonly cause: unknown) {
    super(`The database is unavailable (${cause instanceof Error ? cause.message : String(cause)}).`);
    this.name = 'DatabaseUnavailableError';
  }
}

/**
 * SQLSTATEs that mean the session is gone, not that the statement was wrong: connection exceptions
 * (class 08) and admin_shutdown, crash_shutdown, cannot_connect_now (57P01–57P03). The server sends
 * them as the statement's error just before it closes the socket, so they arrive before the client's
 * own 'error'.
 */
const SESSION_GONE = /^(08...|57P0[123])$/;

function sessionGone(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && SESSION_GONE.test(code);
}

function asUnavailable(err: unknown): DatabaseUnavailableError {
  return err instanceof DatabaseUnavailableError ? err : new DatabaseUnavailableError(err);
}

/** A pg.Client class that reports its connection's loss and turns a statement's failure from it into a DatabaseUnavailableError. */
function reportingClient(name: PgConnectionName, onError: OnConnectionError): typeof pg.Client {
  return class ReportingClient extends loadPg().Client {
    #lost = false;

    constructor(config?: string | pg.ClientConfig) {
      super(config);
      this.on('error', (err) => {
        // pg emits this once the socket is gone, for an idle and a checked-out client alike; the pool
        // re-emits it for an idle one (listened to in createPgPool, not reported twice).
        if (this.#lost) return;
        this.#lost = true;
        onError(name, err);
      });
    }

    override connect(): Promise<pg.Client>;
    override connect(callback: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): void;
    override connect(callback?: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): Promise<pg.Client> | void {
      // The pool connects with a callback; a failure to connect at all is reported here (no 'error' follows).
      if (callback) {
        super.connect((err: Error | null) => {
          if (err) onError(name, err);
          (callback as (e: Error | null, c: pg.Client) => void)(err, this);
        });
        return;
      }
      return super.connect().catch((err: unknown) => {
        if (err instanceof Error) onError(name, err);
        throw asUnavailable(err);
      });
    }

    // Every promise-returning form of query passes here; callback and submittable forms pass through.
    // (`never`: this one signature stands for all of pg's overloads, whose types it keeps.)
    override query(...args: unknown[]): never {
      const result = (super.query as (...a: unknown[]) => unknown).apply(this, args);
      if (!(result instanceof Promise)) return result as never;
      return result.catch((err: unknown) => {
        throw this.#lost || sessionGone(err) ? asUnavailable(err) : err;
      }) as never;
    }
  };
}

type PoolCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * A pool whose every connection reports its loss (see the top of this file). Failing to get a
 * connection at all (refused, the pool's own connect timeout) is a DatabaseUnavailableError too.
 */
export function createPgPool(name: PgConnectionName, config: pg.PoolConfig, onError: OnConnectionError): pg.Pool {
  class ReportingPool extends loadPg().Pool {
    override connect(): Promise<pg.PoolClient>;
    override connect(callback: PoolCallback): void;
    override connect(callback?: PoolCallback): Promise<pg.PoolClient> | void {
      if (callback) return super.connect((err, client, done) => callback(err ? asUnavailable(err) : undefined, client, done));
      return super.connect().catch((err: unknown) => {
        throw asUnavailable(err);
      });
    }
  }
  const pool = new ReportingPool({ ...config, Client: reportingClient(name, onError) as unknown as NonNullable<pg.PoolConfig['Client']> });
  // The pool re-emits an idle client's error (already reported by the client itself); without a
  // listener that re-emission would end the process. The pool has dropped the client by then.
  pool.on('error', () => undefined);
  return pool;
}

/** One connection of its own (LISTEN), reporting its loss like the pools' do; the owner reconnects. */
export function createPgClient(name: PgConnectionName, config: pg.ClientConfig, onError: OnConnectionError): pg.Client {
  const Client = reportingClient(name, onError);
  return new Client(config);
}
