import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { Lru } from '../lib/lru.js';

/** Distinct statements a connection keeps prepared; past this, further ones run unnamed as before. */
const MAX_NAMED_PER_CONNECTION = 200;
/** Sightings before a statement is named: one-off statements (migrations, an odd IN list) stay unnamed. */
const NAME_AFTER_RUNS = 2;
/** Distinct statement texts counted (least recently seen forgotten first), and the most ever named. */
const SEEN_TEXTS = 2000;

/** Statements longer than this run unnamed. */
const MAX_NAMED_TEXT = 4096;

/** A prepared statement went stale on its connection; running the request again succeeds. */
export class StalePreparedStatementError extends Error {
  readonly code = 'FORMSIGN_STALE_STATEMENT';
  constructor(override readonly cause: unknown) {
    super(`A prepared statement no longer matches the database (${cause instanceof Error ? cause.message : String(cause)}); retry.`);
    this.name = 'StalePreparedStatementError';
  }
}

/** Only plain data statements: the ones PostgreSQL can prepare, with a result shape that stays put. */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

interface Named {
  readonly client: pg.PoolClient;
  /** The statement names this connection has sent (each prepared on it, or its Parse failed and pg forgot it). */
  readonly names: Set<string>;
  /** A prepared statement's plan no longer fits its result (the schema changed under it): drop the connection. */
  stale: boolean;
}

/**
 * PostgreSQL: runs repeated statements as named (server-side prepared) statements, so PostgreSQL
 * parses each once per connection instead of on every run, and may keep a generic plan for it
 * (node-postgres prepares a query config with a `name` on first use per connection and binds it
 * thereafter). Kysely sends every query as unnamed text; the worker's hot statements (the claim, the
 * fenced updates, the delivery read) cost PostgreSQL a parse and a plan each time.
 *
 * Bounded: a statement is named from its second run (statements seen once, such as migrations, never
 * are), a connection holds at most MAX_NAMED_PER_CONNECTION, and the name is a hash of the text, so the
 * same text has the same name on every connection and two texts never share one. The search_path is
 * fixed per pool at connection start, so a statement prepared on a connection always means the same
 * tables there.
 *
 * A schema change made while connections hold prepared statements (a migration run by another process
 * during a deploy) may make PostgreSQL refuse a prepared `select *` or `returning *` whose result
 * columns changed ("cached plan must not change result type", 0A000). That statement fails once, and
 * its connection is dropped from the pool at release instead of being reused with the stale statement
 * (once per pooled connection at most). Behind a pooler that hands one server session to several
 * clients (PgBouncer in transaction mode before 1.21's max_prepared_statements) named statements do
 * not work: set PG_PREPARED_STATEMENTS=off (config.ts), which opens the pools without this wrapper,
 * or connect Formsign to PostgreSQL directly or in session mode.
 */
export function namedStatementPool(pool: pg.Pool): PostgresPool {
  const seen = new Lru<string, number>(SEEN_TEXTS);
  // A plain map (read on every statement), filled until full: names are never taken back from
  // connections, so forgetting one would only stop new connections from preparing it.
  const nameOf = new Map<string, string>();
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();

  /** The name to run `text` under on this connection, or undefined to run it unnamed. */
  const nameFor = (c: Named, text: string): string | undefined => {
    let name = nameOf.get(text);
    if (name === undefined) {
      // Long texts are one-off shapes (multi-row inserts of a given row count): not worth a slot.
      if (text.length > MAX_NAMED_TEXT || !PREPARABLE.test(text)) return undefined;
      const runs = (seen.get(text) ?? 0) + 1;
      seen.set(text, runs);
      if (runs < NAME_AFTER_RUNS) return undefined;
      if (nameOf.size >= SEEN_TEXTS) return undefined;
      name = `fs_${createHash('sha1').update(text).digest('base64url')}`;
      nameOf.set(text, name);
    }
    if (c.names.has(name)) return name;
    if (c.names.size >= MAX_NAMED_PER_CONNECTION) return undefined;
    c.names.add(name);
    return name;
  };

  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    const c: Named = { client, names: new Set(), stale: false };
    const query = async <R>(text: string, values: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> => {
      const name = nameFor(c, text);
      try {
        const r = await client.query({ text, values: values as unknown[], ...(name ? { name } : {}) });
        return r as unknown as PostgresQueryResult<R>;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        // 0A000: the plan no longer fits the result (the schema changed); 26000: the statement is gone
        // (DISCARD ALL, a pooler's reset). Either way this connection's names are stale: it is dropped
        // at release, and the error says "retry" (http/database-busy.ts answers it 503 with Retry-After).
        if (name && (code === '0A000' || code === '26000')) {
          c.stale = true;
          throw new StalePreparedStatementError(error);
        }
        throw error;
      }
    };
    return {
      query: query as PostgresPoolClient['query'],
      release() {
        // A connection whose prepared statements went stale is closed rather than handed out again.
        if (c.stale) {
          wrapped.delete(client);
          client.release(true);
        } else {
          client.release();
        }
      },
    };
  };

  return {
    async connect() {
      const client = await pool.connect();
      let w = wrapped.get(client);
      if (!w) wrapped.set(client, (w = wrap(client)));
      return w;
    },
    end: () => pool.end(),
  };
}
