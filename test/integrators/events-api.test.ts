import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { insertEvent } from '../../src/db/repositories/events.js';
import { EVENT_RETENTION_MS } from '../../src/domain/events/read-events.js';
import { newId } from '../../src/lib/ids.js';
import { createHarness, DIALECTS, errorOf, type Harness } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';
import { startReceiver, waitFor } from '../webhooks/support/receiver.js';
import { createWebhook } from '../webhooks/support/webhooks.js';

// Issue 26, item 2: GET /api/v1/events and /api/v1/events/{id}.

interface EventItem {
  id: string;
  type: string;
  created_at: string;
  data: { object: { id: string } };
}
interface EventPage {
  object: 'list';
  data: EventItem[];
  has_more: boolean;
}

for (const dialect of DIALECTS) {
  describe(`events API (${dialect})`, () => {
    let h: Harness;
    let templateId: string;
    before(async () => {
      h = await createHarness(dialect, { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
      await h.deps.worker.start();
      templateId = await seedTemplate(h, h.actors.aTest.partition, 'Lease', new Date().toISOString());
    });
    after(() => h.close());

    const list = async (query: string, as = h.actors.aTest) => {
      const res = await h.request({ url: `/api/v1/events${query}`, as });
      assert.equal(res.status, 200, res.body);
      return { res, page: res.json<EventPage>() };
    };

    it("a flow's events are, byte for byte, the bodies a webhook receiver got", async () => {
      const rx = await startReceiver();
      try {
        await createWebhook(h, h.actors.aTest, rx.url, ['form.created', 'form.sent', 'form.viewed']);
        const form = (await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId, prefill: { full_name: 'Ada' } } })).json<{ id: string }>();
        const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/send`, as: h.actors.aTest, json: { recipients: [{ channel: 'email', email: 'ada@example.com', name: 'Ada' }] } });
        assert.equal(sent.status, 200, sent.body);
        const link = new URL(sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients[0]!.signing_url);
        assert.equal((await h.request({ url: link.pathname })).status, 200);
        await waitFor('three deliveries', () => rx.received.length >= 3, 30_000);

        const { res, page } = await list(`?form_id=${form.id}`);
        assert.deepEqual(page.data.map((e) => e.type), ['form.viewed', 'form.sent', 'form.created'], 'newest first');
        for (const delivery of rx.received) {
          const id = String(delivery.headers['service-event-id']);
          const one = await h.request({ url: `/api/v1/events/${id}`, as: h.actors.aTest });
          assert.equal(one.status, 200);
          assert.ok(one.rawPayload.equals(delivery.raw), `GET /events/${id} is the delivered body:\n${one.body}\n${delivery.raw.toString()}`);
          assert.ok(res.body.includes(delivery.raw.toString()), 'and so is its entry in the list');
        }
      } finally {
        await rx.close();
      }
    });

    it("another partition's event is not found, and not listed", async () => {
      const { page } = await list('?limit=1');
      const id = page.data[0]!.id;
      for (const as of [h.actors.aLive, h.actors.bTest]) {
        const res = await h.request({ url: `/api/v1/events/${id}`, as });
        assert.equal(res.status, 404);
        assert.equal(errorOf(res).code, 'resource_not_found');
        assert.ok(!(await list('?limit=100', as)).page.data.some((e) => e.id === id));
        const cursor = await h.request({ url: `/api/v1/events?starting_after=${id}`, as });
        assert.equal(errorOf(cursor).code, 'parameter_invalid', 'a cursor from another partition is refused like an unknown one');
      }
    });

    it('pages across 250 events lose and repeat none, newest first; filters combine', async () => {
      const as = h.actors.bTest;
      const p = as.partition;
      const t = await seedTemplate(h, p, 'Many', new Date().toISOString());
      const forms: Array<{ id: string; created_at: string }> = [];
      for (let i = 0; i < 2; i++) forms.push((await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: t } })).json<{ id: string; created_at: string }>());
      // 248 more events, a millisecond apart, some sharing a timestamp.
      const base = Date.now() - 3_600_000;
      const rows = await h.deps.database.db.selectFrom('events').selectAll().where('form_id', 'in', forms.map((f) => f.id)).execute();
      await h.deps.domain.transact(async (trx) => {
        for (let i = 0; i < 248; i++) {
          const from = rows[i % 2]!;
          await insertEvent(trx, p, { id: newId('event'), type: i % 4 === 0 ? 'form.sent' : 'form.viewed', form_id: from.form_id, form_created_at: from.form_created_at, form: from.form, created_at: new Date(base + Math.floor(i / 3)).toISOString() });
        }
      });
      const all = await h.deps.database.db.selectFrom('events').select(['id', 'created_at', 'type', 'form_id', 'seq']).where('account_id', '=', p.accountId).where('mode', '=', p.mode).execute();
      assert.equal(all.length, 250);
      // The feed's order is commit order (issue 35: `seq`), newest first, not created_at.
      const expected = [...all].sort((a, b) => Number(b.seq) - Number(a.seq)).map((e) => e.id);

      for (const limit of [100, 7]) {
        const seen: string[] = [];
        let after = '';
        for (;;) {
          const { page } = await list(`?limit=${limit}${after ? `&starting_after=${after}` : ''}`, as);
          seen.push(...page.data.map((e) => e.id));
          if (!page.has_more) break;
          after = page.data.at(-1)!.id;
        }
        assert.equal(seen.length, 250, `limit ${limit}: every event once`);
        assert.deepEqual(seen, expected, `limit ${limit}: newest first, nothing lost or repeated`);
      }

      const sentOnly = (await list('?type=form.sent&limit=100', as)).page.data;
      assert.equal(sentOnly.length, all.filter((e) => e.type === 'form.sent').length);
      assert.ok(sentOnly.every((e) => e.type === 'form.sent'));
      const ofForm = (await list(`?form_id=${forms[0]!.id}&limit=100`, as)).page;
      assert.ok(ofForm.data.every((e) => e.data.object.id === forms[0]!.id));
      assert.equal(ofForm.data.length + (ofForm.has_more ? 1 : 0) >= 100, true);
      const gte = new Date(base + 10).toISOString();
      const lt = new Date(base + 20).toISOString();
      const window = (await list(`?created[gte]=${encodeURIComponent(gte)}&created[lt]=${encodeURIComponent(lt)}&type=form.viewed&limit=100`, as)).page.data;
      const inWindow = all.filter((e) => e.created_at >= gte && e.created_at < lt && e.type === 'form.viewed');
      assert.ok(inWindow.length > 0);
      assert.deepEqual(window.map((e) => e.id).sort(), inWindow.map((e) => e.id).sort());
      // The same instant in another offset selects the same events.
      const offset = new Date(base + 10).toISOString().replace('Z', '+00:00');
      assert.equal((await list(`?created[gte]=${encodeURIComponent(offset)}&created[lt]=${encodeURIComponent(lt)}&type=form.viewed&limit=100`, as)).page.data.length, inWindow.length);
      assert.equal((await list('?form_id=form_000000000000000000000000', as)).page.data.length, 0, 'an unknown form has no events');
      const bad = await h.request({ url: '/api/v1/events?created[gte]=yesterday', as });
      assert.equal(errorOf(bad).code, 'parameter_invalid');
    });

    it('events are shown for 30 days', async () => {
      const as = h.actors.bTest;
      const any = await h.deps.database.db.selectFrom('events').selectAll().where('account_id', '=', as.partition.accountId).where('mode', '=', as.partition.mode).executeTakeFirstOrThrow();
      const id = newId('event');
      await h.deps.domain.transact((trx) => insertEvent(trx, as.partition, { ...any, id, created_at: new Date(Date.now() - EVENT_RETENTION_MS - 60_000).toISOString() }));
      assert.equal((await h.request({ url: `/api/v1/events/${id}`, as })).status, 404);
      const { page } = await list('?limit=100&created[gte]=2000-01-01T00:00:00Z', as);
      assert.ok(!page.data.some((e) => e.id === id));
    });
  });
}
