import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { createHarness } from '../harness.js';

// PG_PREPARED_STATEMENTS=off (config.ts → database.ts): no connection prepares a named statement, for a
// pooler in transaction mode (PgBouncer), where the next transaction may get another server session.


describe('PG_PREPARED_STATEMENTS', () => {
  it('parses on (the default) and off, and refuses anything else', () => {
    assert.equal(loadConfig({}).pgPreparedStatements, true);
    assert.equal(loadConfig({ PG_PREPARED_STATEMENTS: 'on' }).pgPreparedStatements, true);
    assert.equal(loadConfig({ PG_PREPARED_STATEMENTS: 'off' }).pgPreparedStatements, false);
    assert.throws(() => loadConfig({ PG_PREPARED_STATEMENTS: 'false' }), { message: 'Invalid configuration: PG_PREPARED_STATEMENTS must be on or off' });
  });

  for (const setting of ['on', 'off'] as const) {
    it(`${setting}: the server ${setting === 'on' ? 'runs repeated statements prepared' : 'prepares no statement'} on its connections, and answers the same`, async () => {
      const h = await createHarness('postgres', { env: { PG_PREPARED_STATEMENTS: setting } });
      try {
        for (let i = 0; i < 3; i++) {
          const res = await h.request({ url: '/api/v1/templates', as: h.actors.aTest });
          assert.equal(res.status, 200);
          assert.ok(Array.isArray((res.json() as { data: unknown[] }).data));
        }
        const prepared = await h.deps.database.transact(async (trx) => {
          for (let i = 0; i < 3; i++) await sql`select ${i}::int as n from outbox limit 1`.execute(trx);
          return (await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements`.execute(trx)).rows[0]?.n;
        });
        if (setting === 'on') assert.ok((prepared ?? 0) >= 1, `named statements on the connection: ${prepared}`);
        else assert.equal(prepared, 0);
      } finally {
        await h.close();
      }
    });
  }
});
