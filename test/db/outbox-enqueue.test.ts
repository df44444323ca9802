import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { isId, newOrderedId } from '../../src/lib/ids.js';
import type { Partition } from '../../src/lib/partition.js';
import { enqueue } from '../../src/outbox/enqueue.js';
import { DIALECTS, PG_URL } from '../harness.js';

// enqueue() is how a use case asks for work (e-mail, SMS, sealing, webhook attempts): the job row is
// written in the caller's transaction, so it exists exactly when the state change does.

const NOW = '2026-01-01T00:00:00.000Z';

for (const dialect of DIALECTS) {
  describe(`outbox enqueue (${dialect})`, () => {
    let handle: DatabaseHandle;
    let dataDir: string;
    let pgSchema: string | undefined;
    const p: Partition = { accountId: 'acct_outbox', mode: 'test' };

    before(async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `formsign-outbox-${dialect}-`));
      if (dialect === 'postgres') {
        pgSchema = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
        const c = new pg.Client({ connectionString: PG_URL });
        await c.connect();
        await c.query(`create schema ${pgSchema}`);
        await c.end();
      }
      handle = openDatabase({ dataDir, ...(pgSchema ? { databaseUrl: PG_URL, pgSchema } : {}) });
      await migrateToLatest(handle);
    });

    after(async () => {
      await handle.close();
      if (pgSchema) {
        const c = new pg.Client({ connectionString: PG_URL });
        await c.connect();
        await c.query(`drop schema ${pgSchema} cascade`);
        await c.end();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('writes a pending job in the caller’s transaction', async () => {
      const id = await handle.transact((trx) => enqueue(trx, p, { kind: 'email.send', payload: { to: 'ada@example.com', n: 1 }, runAt: NOW }));
      const row = await handle.db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      assert.deepEqual(
        { ...row, attempts: Number(row.attempts), payload: JSON.parse(row.payload) as unknown },
        { id, account_id: p.accountId, mode: 'test', kind: 'email.send', payload: { to: 'ada@example.com', n: 1 }, status: 'pending', attempts: 0, run_at: NOW, locked_until: null, last_error: null, created_at: NOW },
      );
    });

    it('a job enqueued by a unit that then fails does not exist', async () => {
      let id = '';
      await assert.rejects(
        handle.transact(async (trx) => {
          id = await enqueue(trx, p, { kind: 'email.send', payload: {}, runAt: NOW });
          throw new Error('the state change failed');
        }),
        /the state change failed/,
      );
      assert.ok(id);
      assert.equal(await handle.db.selectFrom('outbox').select('id').where('id', '=', id).executeTakeFirst(), undefined);
    });

    it('job ids are ordered by creation time, so inserts append to the key index', async () => {
      const first = newOrderedId('job');
      await new Promise((r) => setTimeout(r, 5));
      const second = newOrderedId('job');
      assert.ok(isId('job', first) && isId('job', second), `${first} ${second}`);
      assert.ok(first < second, `${first} < ${second}`);
    });
  });
}
