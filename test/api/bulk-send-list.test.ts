import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, errorOf, type Actor, type Harness } from '../harness.js';
import { seedTemplate, SEED_FIELDS } from '../shared/seed.js';

// GET /api/v1/bulk-sends: a sender finds a bulk send again after leaving the page that made it —
// newest first, paged with `starting_after`, each with its progress, and only the key's partition.

interface BulkSend { object: string; id: string; status: string; total: number; sent: number; failed: number; row_errors?: unknown }
interface Page { object: string; data: BulkSend[]; has_more: boolean }

for (const dialect of DIALECTS) {
  describe(`listing bulk sends (${dialect})`, () => {
    let h: Harness;
    const made: string[] = [];
    before(async () => {
      h = await createHarness(dialect);
      const templateId = await seedTemplate(h, h.actors.aTest.partition, 'Lease', new Date().toISOString(), SEED_FIELDS);
      // Three bulk sends of 1, 2 and 3 rows (the last with one bad row), made one after another.
      for (const n of [1, 2, 3]) {
        const rows = Array.from({ length: n }, (_, i) => ({ prefill: { full_name: `Tenant ${n}.${i}` }, recipients: [{ channel: 'email', email: i === 2 ? 'not-an-address' : `t${n}.${i}@example.com` }] }));
        const res = await h.request({ method: 'POST', url: '/api/v1/bulk-sends', as: h.actors.aTest, json: { template_id: templateId, rows } });
        assert.equal(res.status, 202, res.body);
        made.push(res.json<BulkSend>().id);
      }
      await h.deps.worker.runDue();
    });
    after(() => h.close());

    const list = async (query: string, as: Actor = h.actors.aTest): Promise<Page> => {
      const res = await h.request({ url: `/api/v1/bulk-sends${query}`, as });
      assert.equal(res.status, 200, res.body);
      return res.json<Page>();
    };

    it('lists them newest first with their progress, and pages with starting_after', async () => {
      const all = await list('');
      assert.equal(all.object, 'list');
      assert.deepEqual(all.data.map((b) => b.id), [...made].reverse());
      assert.deepEqual(all.data.map((b) => [b.object, b.status, b.total, b.sent, b.failed]), [
        ['bulk_send', 'completed', 3, 2, 1], ['bulk_send', 'completed', 2, 2, 0], ['bulk_send', 'completed', 1, 1, 0],
      ]);
      assert.ok(all.data.every((b) => b.row_errors === undefined), 'row errors are read from the rows');
      assert.equal(all.has_more, false);

      const first = await list('?limit=2');
      assert.deepEqual([first.data.map((b) => b.id), first.has_more], [[made[2], made[1]], true]);
      const second = await list(`?limit=2&starting_after=${first.data[1]!.id}`);
      assert.deepEqual([second.data.map((b) => b.id), second.has_more], [[made[0]], false]);
    });

    it('shows only the key’s partition; another partition’s id is refused as a cursor the same way as an unknown one', async () => {
      assert.deepEqual((await list('', h.actors.aLive)).data, [], 'live mode has none');
      assert.deepEqual((await list('', h.actors.bTest)).data, [], 'another account has none');
      for (const cursor of [made[0]!, 'bulk_000000000000000000000000']) {
        const res = await h.request({ url: `/api/v1/bulk-sends?starting_after=${cursor}`, as: h.actors.bTest });
        assert.equal(res.status, 400, res.body);
        assert.deepEqual([errorOf(res).code, errorOf(res).param], ['parameter_invalid', 'starting_after']);
        assert.match(errorOf(res).message, /bulk send in this list/);
      }
      const malformed = await h.request({ url: '/api/v1/bulk-sends?starting_after=form_123', as: h.actors.aTest });
      assert.deepEqual([malformed.status, errorOf(malformed).code, errorOf(malformed).param], [400, 'parameter_invalid', 'starting_after']);
    });
  });
}
