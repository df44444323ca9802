import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';
import { assertPartitionIsolation } from '../shared/partition-isolation.js';
import { SEED_FIELDS, seedTemplate } from '../shared/seed.js';

interface Template { id: string; name: string; object: string; mode: string; fields: unknown[]; created_at: string }
interface List { object: string; data: Template[]; has_more: boolean }

for (const dialect of DIALECTS) {
  describe(`templates read API (${dialect})`, () => {
    let h: Harness;
    const ids: string[] = [];
    before(async () => {
      h = await createHarness(dialect);
      // 25 templates, one second apart, plus two sharing a timestamp to exercise the id tie-break.
      for (let i = 0; i < 25; i++) {
        ids.push(await seedTemplate(h, h.actors.aTest.partition, `T${i}`, new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString()));
      }
      ids.push(await seedTemplate(h, h.actors.aTest.partition, 'tie-1', '2026-01-01T00:00:30.000Z'));
      ids.push(await seedTemplate(h, h.actors.aTest.partition, 'tie-2', '2026-01-01T00:00:30.000Z'));
    });
    after(() => h.close());

    it('lists newest first, 20 by default, then pages with starting_after until has_more is false', async () => {
      const first = await h.request({ url: '/api/v1/templates', as: h.actors.aTest });
      const page1 = first.json<List>();
      assert.equal(page1.object, 'list');
      assert.equal(page1.data.length, 20);
      assert.equal(page1.has_more, true);
      const seen: string[] = page1.data.map((t) => t.id);
      let cursor = seen.at(-1)!;
      for (;;) {
        const next = (await h.request({ url: `/api/v1/templates?limit=3&starting_after=${cursor}`, as: h.actors.aTest })).json<List>();
        seen.push(...next.data.map((t) => t.id));
        if (!next.has_more) break;
        assert.equal(next.data.length, 3);
        cursor = next.data.at(-1)!.id;
      }
      assert.equal(seen.length, ids.length, 'every template exactly once');
      assert.equal(new Set(seen).size, ids.length);
      // Newest first: the two tied ones, then T24 … T0.
      const tied = ids.slice(25).sort().reverse();
      assert.deepEqual(seen.slice(0, 2), tied);
      assert.deepEqual(seen.slice(2), ids.slice(0, 25).reverse());
    });

    it('limit bounds the page', async () => {
      const res = (await h.request({ url: '/api/v1/templates?limit=100', as: h.actors.aTest })).json<List>();
      assert.equal(res.data.length, 27);
      assert.equal(res.has_more, false);
    });

    it('get returns the whole template', async () => {
      const res = await h.request({ url: `/api/v1/templates/${ids[3]}`, as: h.actors.aTest });
      const t = res.json<Template & Record<string, unknown>>();
      assert.equal(t.object, 'template');
      assert.equal(t.id, ids[3]);
      assert.equal(t.name, 'T3');
      assert.equal(t.mode, 'test');
      assert.deepEqual(t.fields, SEED_FIELDS);
      assert.equal(t['signer_count'], 1);
      assert.equal(t.created_at, '2026-01-01T00:00:03.000Z');
    });

    it("another partition's template is not found, in get and in list", async () => {
      await assertPartitionIsolation(h, { owner: h.actors.aTest, id: ids[0]!, getUrl: `/api/v1/templates/${ids[0]}`, listUrl: '/api/v1/templates?limit=100' });
    });

    it("another partition's id as a cursor is refused like an unknown one", async () => {
      const other = await h.request({ url: `/api/v1/templates?starting_after=${ids[0]}`, as: h.actors.bTest });
      assert.equal(other.status, 400);
      assert.equal(errorOf(other).param, 'starting_after');
    });
  });
}
