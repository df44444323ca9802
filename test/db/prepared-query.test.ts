import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { migrateToLatest, type DatabaseHandle } from '../../src/db/database.js';
import { insertAccount } from '../../src/db/repositories/accounts.js';
import { preparedQuery } from '../../src/db/prepared-query.js';
import { limitLiteral } from '../../src/db/repositories/pagination.js';
import { findTemplate, insertTemplate, listTemplateIds } from '../../src/db/repositories/templates.js';
import type { Partition } from '../../src/lib/partition.js';
import { DIALECTS, openStore } from '../harness.js';

// Hot reads are compiled once and rerun with new arguments (prepared-query.ts). These tests pin down
// that a rerun answers for its own arguments, and that a query built wrongly is refused, not run.

const NOW = '2026-01-01T00:00:00.000Z';
const A: Partition = { accountId: 'acct_prepared_a', mode: 'test' };
const B: Partition = { accountId: 'acct_prepared_b', mode: 'test' };

function templateRow(id: string, createdAt: string) {
  return { id, name: `name of ${id}`, page_count: 1, fields: '[]', signer_count: 1, warnings: '[]', pdf_key: 'k', pdf_sha256: 's', created_at: createdAt, updated_at: createdAt };
}

for (const dialect of DIALECTS) {
  describe(`prepared queries (${dialect})`, () => {
    let store: Awaited<ReturnType<typeof openStore>>;
    let handle: DatabaseHandle;

    before(async () => {
      store = await openStore(dialect, 'prepared');
      handle = store.handle;
      await migrateToLatest(handle);
      for (const { accountId } of [A, B]) {
        await handle.transact((trx) => insertAccount(trx, { id: accountId, name: accountId, email: null, plan: 'trial', monthly_limit: null, per_minute_limit: null, created_at: NOW, updated_at: NOW }));
      }
      for (let i = 0; i < 5; i++) await handle.transact((trx) => insertTemplate(trx, A, templateRow(`tpl_a${i}`, `2026-01-01T00:00:0${i}.000Z`)));
      for (let i = 0; i < 3; i++) await handle.transact((trx) => insertTemplate(trx, B, templateRow(`tpl_b${i}`, `2026-01-01T00:00:0${i}.000Z`)));
    });

    after(() => store.close());

    it('a rerun answers for its own arguments, never the first call’s', async () => {
      assert.equal((await findTemplate(handle.db, A, 'tpl_a1'))?.name, 'name of tpl_a1');
      assert.equal((await findTemplate(handle.db, B, 'tpl_b2'))?.name, 'name of tpl_b2');
      // The other partition's id is not found, through the same compiled query.
      assert.equal(await findTemplate(handle.db, B, 'tpl_a1'), undefined);
      assert.equal(await findTemplate(handle.db, A, 'tpl_b2'), undefined);
    });

    it('pages are newest first, sized per call, and continue after a cursor', async () => {
      const first = await listTemplateIds(handle.db, A, { limit: 2 });
      assert.deepEqual(first, { rows: [{ id: 'tpl_a4' }, { id: 'tpl_a3' }], hasMore: true });
      const next = await listTemplateIds(handle.db, A, { limit: 2, after: { created_at: '2026-01-01T00:00:03.000Z', id: 'tpl_a3' } });
      assert.deepEqual(next, { rows: [{ id: 'tpl_a2' }, { id: 'tpl_a1' }], hasMore: true });
      const last = await listTemplateIds(handle.db, A, { limit: 3, after: { created_at: '2026-01-01T00:00:01.000Z', id: 'tpl_a1' } });
      assert.deepEqual(last, { rows: [{ id: 'tpl_a0' }], hasMore: false });
      assert.deepEqual(await listTemplateIds(handle.db, B, { limit: 10 }), { rows: [{ id: 'tpl_b2' }, { id: 'tpl_b1' }, { id: 'tpl_b0' }], hasMore: false });
    });

    it('keeps constants written into the query', async () => {
      const liveNamed = preparedQuery((db, a: { name: string }) => db.selectFrom('templates').select('id').where('mode', '=', 'live').where('name', '=', a.name));
      const testNamed = preparedQuery((db, a: { name: string }) => db.selectFrom('templates').select('id').where('mode', '=', 'test').where('name', '=', a.name));
      assert.deepEqual(await liveNamed(handle.db, { name: 'name of tpl_a1' }), []);
      assert.deepEqual(await testNamed(handle.db, { name: 'name of tpl_a1' }), [{ id: 'tpl_a1' }]);
      assert.deepEqual(await testNamed(handle.db, { name: 'name of tpl_b0' }), [{ id: 'tpl_b0' }]);
    });

    it('compiles one query per shape value', async () => {
      const newest = preparedQuery((db, a: Partition, limit: number) =>
        db.selectFrom('templates').select('id').where('account_id', '=', a.accountId).where('mode', '=', a.mode).orderBy('created_at', 'desc').limit(limitLiteral(limit)),
      );
      assert.deepEqual(await newest(handle.db, A, 1), [{ id: 'tpl_a4' }]);
      assert.deepEqual(await newest(handle.db, A, 3), [{ id: 'tpl_a4' }, { id: 'tpl_a3' }, { id: 'tpl_a2' }]);
      assert.deepEqual(await newest(handle.db, B, 1), [{ id: 'tpl_b2' }]);
    });

    it('refuses an argument changed on its way into the query', async () => {
      const derived = preparedQuery((db, a: { name: string }) => db.selectFrom('templates').select('id').where('name', '=', `name of ${a.name}`));
      await assert.rejects(derived(handle.db, { name: 'tpl_a1' }), /derived from an argument/);
    });

    it('refuses an argument that shapes the query instead of being a value in it', async () => {
      const shaped = preparedQuery((db, a: { id?: string }) => {
        const q = db.selectFrom('templates').select('id');
        return a.id === undefined ? q : q.where('id', '=', 'tpl_a1');
      });
      await assert.rejects(shaped(handle.db, { id: 'tpl_a2' }), /argument\(s\) id shaped the query/);
    });

    it('refuses a builder that branches on whether an argument is set (it would answer [] when unset)', async () => {
      const branching = preparedQuery((db, a: { status?: 'draft' | 'sent' | undefined }) => {
        const q = db.selectFrom('forms').select('id').where('account_id', '=', 'acct_x');
        return a.status ? q.where('status', '=', a.status) : q;
      });
      await assert.rejects(branching(handle.db, { status: undefined }), /changes shape when an argument is unset/);
      await assert.rejects(branching(handle.db, { status: 'draft' }), /changes shape when an argument is unset/);
    });

    it('refuses a page size that is not a row count', () => {
      assert.throws(() => limitLiteral(1.5), /not a row count/);
      assert.throws(() => limitLiteral(-1), /not a row count/);
      assert.throws(() => limitLiteral(Number.NaN), /not a row count/);
    });
  });
}
