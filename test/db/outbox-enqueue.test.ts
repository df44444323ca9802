import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { migrateToLatest, type DatabaseHandle } from '../../src/db/database.js';
import { isId, newOrderedId } from '../../src/lib/ids.js';
import type { Partition } from '../../src/lib/partition.js';
import { enqueue } from '../../src/outbox/enqueue.js';
import { DIALECTS, openStore } from '../harness.js';

// enqueue() is how a use case asks for work (e-mail, SMS, sealing, webhook attempts): the job row is
// written in the caller's transaction, so it exists exactly when the state change does.

const NOW = '2026-01-01T00:00:00.000Z';

for (const dialect of DIALECTS) {
  describe(`outbox enqueue (${dialect})`, () => {
    let store: Awaited<ReturnType<typeof openStore>>;
    let handle: DatabaseHandle;
    const p: Partition = { accountId: 'acct_outbox', mode: 'test' };

    before(async () => {
      store = await openStore(dialect, 'outbox');
      handle = store.handle;
      await migrateToLatest(handle);
    });

    after(() => store.close());

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
