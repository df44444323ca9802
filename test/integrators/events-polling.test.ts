import assert from 'node:assert/strict';
import { setImmediate as turn, setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { insertEvent } from '../../src/db/repositories/events.js';
import { setAccountLimits } from '../../src/domain/accounts/manage-accounts.js';
import { newId } from '../../src/lib/ids.js';
import { createHarness, DIALECTS, errorOf, PG_URL, type Actor, type Harness } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';

// Issue 35, item 1: GET /api/v1/events is polled while several connections write events to two
// partitions. Each writer takes created_at before its transaction, as the use cases do, so commit order
// and created_at differ; every documented way to poll must still see each event of its partition
// exactly once (before the fix, a newest-first poller missed 13 % of them on SQLite, 54 % on PostgreSQL).

const EVENTS = 10_000;
const WRITERS = 4;
const IN_FLIGHT = 6;
const PAGE = 100;
/** Events per transaction: 1 to this many (some state changes write several). */
const PER_UNIT = 6;

interface Page {
  data: Array<{ id: string }>;
  has_more: boolean;
}

interface Poller {
  name: string;
  as: Actor;
  seen: string[];
}

for (const dialect of DIALECTS) {
  describe(`events feed under concurrent writers (${dialect})`, () => {
    let h: Harness;
    const handles: DatabaseHandle[] = [];
    before(async () => {
      h = await createHarness(dialect);
      // The pollers make more calls than a month's quota of a test account.
      for (const a of [h.actors.aTest, h.actors.bTest]) await setAccountLimits(h.deps.domain, a.partition.accountId, { monthly: 1_000_000 });
      for (let i = 1; i < WRITERS; i++) {
        const pgSchema = h.deps.database.pgSchema;
        handles.push(openDatabase({ dataDir: h.dataDir, ...(dialect === 'postgres' && pgSchema ? { databaseUrl: PG_URL, pgSchema } : {}) }));
      }
    });
    after(async () => {
      for (const d of handles) await d.close();
      await h.close();
    });

    const page = async (as: Actor, query: string): Promise<Page> => {
      const res = await h.request({ url: `/api/v1/events?limit=${PAGE}${query}`, as });
      assert.equal(res.status, 200, res.body);
      return res.json<Page>();
    };

    it('ending_before and newest-first polling each see 10,000 events once', { timeout: 300_000 }, async () => {
      const parts = [h.actors.aTest, h.actors.bTest];
      const origins = new Map<Actor, { id: string; form_id: string; form_created_at: string; form: string }>();
      for (const as of parts) {
        const template = await seedTemplate(h, as.partition, 'Feed', new Date().toISOString());
        const created = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: template } });
        assert.equal(created.status, 201, created.body);
        const first = (await page(as, '')).data;
        assert.equal(first.length, 1, 'the form.created event');
        origins.set(as, await h.deps.database.db.selectFrom('events').selectAll().where('id', '=', first[0]!.id).executeTakeFirstOrThrow());
      }

      const written = new Map<Actor, Set<string>>(parts.map((a) => [a, new Set()]));
      let writing = true;
      let next = 0;
      const writer = async (d: DatabaseHandle) => {
        while (next < EVENTS) {
          const n = Math.min(EVENTS - next, 1 + Math.floor(Math.random() * PER_UNIT));
          next += n;
          const as = parts[Math.floor(Math.random() * parts.length)]!;
          const row = origins.get(as)!;
          // created_at is taken first; the transaction starts a moment later, as in the use cases.
          const at = new Date().toISOString();
          const ids = Array.from({ length: n }, () => newId('event'));
          if (Math.random() < 0.5) await turn();
          await d.transact(async (trx) => {
            for (const id of ids) await insertEvent(trx, as.partition, { id, type: 'form.viewed', form_id: row.form_id, form_created_at: row.form_created_at, form: row.form, created_at: at });
          });
          for (const id of ids) written.get(as)!.add(id);
        }
      };
      const writers = [h.deps.database, ...handles].flatMap((d) => Array.from({ length: IN_FLIGHT }, () => writer(d)));

      // ending_before = the newest id the poller has; the page's first id is the next cursor.
      const pollForward = async (poller: Poller) => {
        let cursor = origins.get(poller.as)!.id;
        for (;;) {
          const done = !writing;
          const p = await page(poller.as, `&ending_before=${cursor}`);
          poller.seen.push(...p.data.map((e) => e.id));
          if (p.data.length > 0) cursor = p.data[0]!.id;
          else if (done) return;
          else await sleep(50);
        }
      };
      // Newest first, paging down with starting_after to the newest id it already had.
      const pollNewest = async (poller: Poller) => {
        let top = origins.get(poller.as)!.id;
        for (;;) {
          const done = !writing;
          const fresh: string[] = [];
          let p = await page(poller.as, '');
          const head = p.data[0]?.id ?? top;
          for (;;) {
            const stop = p.data.findIndex((e) => e.id === top);
            fresh.push(...(stop < 0 ? p.data : p.data.slice(0, stop)).map((e) => e.id));
            if (stop >= 0) break;
            assert.ok(p.has_more, `the newest id already seen (${top}) is no longer in the list`);
            p = await page(poller.as, `&starting_after=${p.data.at(-1)!.id}`);
          }
          poller.seen.push(...fresh);
          top = head;
          if (fresh.length === 0) {
            if (done) return;
            await sleep(50);
          }
        }
      };
      const pollers: Poller[] = parts.flatMap((as) => [{ name: 'ending_before', as, seen: [] }, { name: 'newest first', as, seen: [] }]);
      const started = Date.now();
      const polling = pollers.map((p) => (p.name === 'ending_before' ? pollForward(p) : pollNewest(p)));
      await Promise.all(writers);
      writing = false;
      await Promise.all(polling);
      const took = Date.now() - started;

      assert.equal([...written.values()].reduce((n, s) => n + s.size, 0), EVENTS);
      for (const poller of pollers) {
        const mine = written.get(poller.as)!;
        const unique = new Set(poller.seen);
        const missed = [...mine].filter((id) => !unique.has(id));
        const foreign = [...unique].filter((id) => !mine.has(id));
        assert.deepEqual({ missed: missed.length, duplicated: poller.seen.length - unique.size, foreign: foreign.length }, { missed: 0, duplicated: 0, foreign: 0 }, `${poller.name}, ${poller.as === parts[0] ? 'A' : 'B'} (${mine.size} events, ${took} ms)`);
      }
    });

    it("a deleted draft's events stay, emptied, with form.deleted: a cursor naming one keeps working and loses nothing", async () => {
      const as = h.actors.aTest;
      const template = await seedTemplate(h, as.partition, 'Gone', new Date().toISOString());
      const draft = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: template } });
      assert.equal(draft.status, 201, draft.body);
      const draftId = draft.json<{ id: string }>().id;
      const [cursor] = (await page(as, '')).data;
      const later = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: template } });
      assert.equal((await h.request({ method: 'DELETE', url: `/api/v1/forms/${draftId}`, as })).status, 200);
      const resumed = await h.request({ url: `/api/v1/events?ending_before=${cursor!.id}`, as });
      assert.equal(resumed.status, 200, resumed.body);
      const events = resumed.json<{ data: Array<{ type: string; data: { object: { id: string; status: string } } }> }>().data;
      assert.deepEqual(events.map((e) => [e.type, e.data.object.id]), [['form.deleted', draftId], ['form.created', later.json<{ id: string }>().id]]);
      assert.equal(events[0]!.data.object.status, 'deleted');
      // The cursor's own event is still listed, emptied of the draft's data.
      const kept = await h.request({ url: `/api/v1/events/${cursor!.id}`, as });
      assert.equal(kept.status, 200, kept.body);
      assert.doesNotMatch(kept.body, /"name":"Gone"/);
    });

    it("a page between two cursors is refused, and a cursor must be one of the partition's events", async () => {
      const [e] = (await page(h.actors.aTest, '')).data;
      const both = await h.request({ url: `/api/v1/events?starting_after=${e!.id}&ending_before=${e!.id}`, as: h.actors.aTest });
      assert.equal(both.status, 400);
      assert.equal(errorOf(both).param, 'ending_before');
      const foreign = await h.request({ url: `/api/v1/events?ending_before=${e!.id}`, as: h.actors.aLive });
      assert.equal(errorOf(foreign).code, 'parameter_invalid');
      assert.equal(errorOf(foreign).param, 'ending_before');
    });
  });
}
