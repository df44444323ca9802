import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { migrateToLatest, type DatabaseHandle } from '../../src/db/database.js';
import { isId, newOrderedId } from '../../src/lib/ids.js';
import type { Partition } from '../../src/lib/partition.js';
import { enqueue } from '../../src/outbox/enqueue.js';
import { messageDeliver } from '../../src/outbox/jobs/message-deliver.job.js';
import { DIALECTS, openStore } from '../harness.js';

// enqueue() is how a use case asks for work (e-mail, SMS, sealing, webhook attempts): the job row is
// written in the caller's transaction, so it exists exactly when the state change does.

const NOW = '2026-01-01T00:00:00.000Z';
const LATER = '2026-01-01T00:05:00.000Z';

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

    it('writes a pending job of a definition, with its version, in the caller’s transaction', async () => {
      const id = await handle.transact((trx) => enqueue(trx, p, messageDeliver, { message_id: 'msg_1' }, { now: NOW }));
      const row = await handle.db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      assert.deepEqual(
        { ...row, attempts: Number(row.attempts), version: Number(row.version), payload: JSON.parse(row.payload) as unknown },
        { id, account_id: p.accountId, mode: 'test', kind: 'message.deliver', payload: { message_id: 'msg_1' }, status: 'pending', attempts: 0, run_at: NOW, locked_until: null, locked_by: null, last_error: null, created_at: NOW, updated_at: NOW, version: messageDeliver.version },
      );
    });

    it('a job due later is created now: created_at is the enqueue time, run_at the due time', async () => {
      const id = await handle.transact((trx) => enqueue(trx, p, messageDeliver, { message_id: 'msg_2' }, { now: NOW, runAt: LATER }));
      const row = await handle.db.selectFrom('outbox').select(['created_at', 'run_at', 'updated_at']).where('id', '=', id).executeTakeFirstOrThrow();
      assert.deepEqual(row, { created_at: NOW, run_at: LATER, updated_at: NOW });
    });

    it('a payload that does not match the definition is refused and its unit rolled back', async () => {
      const before = await handle.db.selectFrom('outbox').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      await assert.rejects(
        handle.transact((trx) => enqueue(trx, p, messageDeliver, { message_id: 'msg_3', extra: 1 } as unknown as { message_id: string }, { now: NOW })),
        /extra|Unrecognized/i,
      );
      const after = await handle.db.selectFrom('outbox').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      assert.equal(Number(after.n), Number(before.n));
    });

    it('a job enqueued by a unit that then fails does not exist', async () => {
      let id = '';
      await assert.rejects(
        handle.transact(async (trx) => {
          id = await enqueue(trx, p, messageDeliver, { message_id: 'msg_4' }, { now: NOW });
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
