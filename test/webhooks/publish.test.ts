// The publisher: each event's body is rendered once and stored with every delivery of it; an event
// it cannot render is left to its attempt (body null), never stopping the publication of the rest.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { publishPendingEvents } from '../../src/domain/webhooks/publish-events.js';
import { newId } from '../../src/lib/ids.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';
import { createWebhook } from './support/webhooks.js';

for (const dialect of DIALECTS) {
  describe(`webhook publisher (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      // The worker is not started: the test publishes by hand.
      h = await createHarness(dialect, { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
    });
    after(() => h.close());

    it('renders each event once for all its webhooks; an unrenderable event gets a null body and the batch still publishes', async () => {
      const p = h.actors.aTest.partition;
      const hooks = [
        await createWebhook(h, h.actors.aTest, 'http://127.0.0.1:9/a', ['form.created']),
        await createWebhook(h, h.actors.aTest, 'http://127.0.0.1:9/b', ['form.created']),
      ];
      const templateId = await seedTemplate(h, p, 'T', new Date().toISOString());
      const created = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId, metadata: { ref: 'A-1' } } });
      assert.equal(created.status, 201, created.body);
      const formId = created.json<{ id: string }>().id;
      // An event whose form is gone (as if a row were lost): the publisher cannot render it.
      const orphan = newId('event');
      await h.deps.database.transact(async (trx) => {
        await trx.insertInto('events').values({
          id: orphan, account_id: p.accountId, mode: p.mode, type: 'form.created', form_id: 'form_missing', form_created_at: new Date().toISOString(),
          form: '{}', created_at: new Date().toISOString(), published_at: null,
        }).execute();
      });
      const published = await publishPendingEvents(h.deps.domain, { skipLocked: dialect === 'postgres' });
      assert.ok(published >= 2, `${published} events published`);
      const rows = await h.deps.database.db.selectFrom('webhook_deliveries').select(['webhook_id', 'event_id', 'body']).execute();
      const ofForm = rows.filter((r) => r.event_id !== orphan);
      assert.deepEqual(ofForm.map((r) => r.webhook_id).sort(), hooks.map((w) => w.id).sort(), 'one delivery per webhook');
      const bodies = new Set(ofForm.map((r) => r.body));
      assert.equal(bodies.size, 1, 'both webhooks get the same bytes');
      const body = JSON.parse([...bodies][0]!) as { type: string; data: { object: { id: string; metadata: unknown } } };
      assert.equal(body.type, 'form.created');
      assert.equal(body.data.object.id, formId);
      assert.deepEqual(body.data.object.metadata, { ref: 'A-1' });
      const orphans = rows.filter((r) => r.event_id === orphan);
      assert.equal(orphans.length, 2);
      assert.ok(orphans.every((r) => r.body === null), 'left to be rendered (and fail, visibly) at its attempt');
      const pending = await h.deps.database.db.selectFrom('events').select('id').where('published_at', 'is', null).execute();
      assert.deepEqual(pending, [], 'every event is published');
      const jobs = await h.deps.database.db.selectFrom('outbox').select('payload').where('kind', '=', 'webhook.deliver').execute();
      assert.equal(jobs.length, rows.length, 'one first-attempt job per delivery');
    });

    it('renders the events of several partitions in one batch, each from its own form', async () => {
      await h.deps.database.transact(async (trx) => {
        await trx.deleteFrom('webhook_deliveries').execute();
        await trx.deleteFrom('webhooks').execute();
      });
      const actors = [h.actors.aTest, h.actors.aLive, h.actors.bTest];
      const made: Array<{ hook: string; form: string; mode: string }> = [];
      for (const actor of actors) {
        const hook = await createWebhook(h, actor, 'http://127.0.0.1:9/p', ['form.created']);
        const templateId = await seedTemplate(h, actor.partition, 'T', new Date().toISOString());
        const created = await h.request({ method: 'POST', url: '/api/v1/forms', as: actor, json: { template_id: templateId, name: `form of ${actor.partition.accountId}/${actor.partition.mode}` } });
        assert.equal(created.status, 201, created.body);
        made.push({ hook: hook.id, form: created.json<{ id: string }>().id, mode: actor.partition.mode });
      }
      const published = await publishPendingEvents(h.deps.domain, { skipLocked: dialect === 'postgres' });
      assert.equal(published, 3, 'the three events in one batch');
      const rows = await h.deps.database.db.selectFrom('webhook_deliveries').select(['webhook_id', 'body']).execute();
      assert.equal(rows.length, 3);
      for (const m of made) {
        const row = rows.find((r) => r.webhook_id === m.hook);
        assert.ok(row?.body, `a rendered delivery for ${m.hook}`);
        const body = JSON.parse(row.body) as { mode: string; data: { object: { id: string; name: string } } };
        assert.equal(body.data.object.id, m.form);
        assert.equal(body.mode, m.mode);
      }
    });
  });
}
