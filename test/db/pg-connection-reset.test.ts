import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type pg from 'pg';
import { createPgPool } from '../../src/db/pg-pool.js';
import { PG_URL } from '../harness.js';
import { startTcpProxy, type TcpProxy } from '../shared/tcp-proxy.js';

// A connection reset under a running statement (a proxy, a load balancer or a failover dropping the
// socket, not PostgreSQL ending the session): the statement fails as DatabaseUnavailableError, which
// the HTTP layer answers 503 with Retry-After, not the socket's own ECONNRESET (a 500). The cluster
// fault test (issue 27) cuts PostgreSQL this way.

describe('a PostgreSQL connection reset mid-statement (postgres)', () => {
  let proxy: TcpProxy;
  let pool: pg.Pool;
  const lost: string[] = [];

  before(async () => {
    const target = new URL(PG_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const url = new URL(PG_URL);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    pool = createPgPool('main', { connectionString: url.toString(), max: 2 }, (name, err) => lost.push(`${name}: ${err.message}`));
  });
  after(async () => {
    await pool.end();
    await proxy.close();
  });

  it('fails the statement as DatabaseUnavailableError, and the next statement runs on a new connection', async () => {
    assert.deepEqual((await pool.query<{ one: number }>('select 1 as one')).rows, [{ one: 1 }]);
    // As Kysely does: a checked-out client's promise-returning query.
    const client = await pool.connect();
    const slow = client.query('select pg_sleep(30)');
    const failure = slow.then(() => assert.fail('the statement outlived its connection'), (err: unknown) => err);
    // The statement is on the wire before the cut.
    await new Promise((r) => setTimeout(r, 300));
    await proxy.cut(200);
    const err = (await failure) as { name?: string; code?: string; message?: string };
    assert.equal(err.name, 'DatabaseUnavailableError', String(err.message));
    assert.equal(err.code, 'FORMSIGN_DB_UNAVAILABLE');
    assert.match(String(err.message), /^The database is unavailable \(/);
    client.release(true);
    assert.ok(lost.length >= 1, 'the lost connection is reported');
    assert.deepEqual((await pool.query<{ two: number }>('select 2 as two')).rows, [{ two: 2 }]);
  });
});
