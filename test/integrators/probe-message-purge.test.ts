import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { webhookSweepHandler } from '../../src/domain/webhooks/sweep-deliveries.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';

// Issue 26, defect 9: a sent message's body holds the signing link in full and was kept for ever. The
// hourly retention sweep (webhook.sweep, which deletes delivery records after 30 days) now empties the
// bodies of messages delivered more than 30 days ago; newer, undelivered and other rows stay as they are.

const DAY = 86_400_000;

for (const dialect of DIALECTS) {
  describe(`message bodies are purged 30 days after delivery (${dialect})`, () => {
    let h: Harness;
    let now = new Date('2026-06-01T12:00:00.000Z');
    before(async () => {
      h = await createHarness(dialect, { clock: { now: () => now } });
    });
    after(() => h.close());

    it('the sweep empties text and html of messages delivered over 30 days ago, keeps the record, and leaves newer or undelivered ones whole', async () => {
      const templateId = await seedTemplate(h, h.actors.aTest.partition, 'Purge', '2026-01-01T00:00:00.000Z');
      const ids: string[] = [];
      for (const email of ['old@example.com', 'recent@example.com', 'queued@example.com']) {
        const form = (await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId } })).json<{ id: string }>();
        const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/send`, as: h.actors.aTest, json: { recipients: [{ channel: 'email', email }] } });
        ids.push(sent.json<{ recipients: Array<{ id: string }> }>().recipients[0]!.id);
      }
      const db = h.deps.database.db;
      const messageOf = (recipientId: string) => db.selectFrom('messages').selectAll().where('recipient_id', '=', recipientId).executeTakeFirstOrThrow();
      const before = await Promise.all(ids.map(messageOf));
      for (const m of before) assert.match(m.text, /\/sign\/[A-Za-z0-9_-]{43}/, 'the body holds the link');
      const at = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
      await db.updateTable('messages').set({ status: 'delivered', delivered_at: at(31), transport: 'dev' }).where('id', '=', before[0]!.id).execute();
      await db.updateTable('messages').set({ status: 'delivered', delivered_at: at(29), transport: 'dev' }).where('id', '=', before[1]!.id).execute();
      await db.updateTable('messages').set({ status: 'queued', delivered_at: null }).where('id', '=', before[2]!.id).execute();

      await webhookSweepHandler(h.deps.domain).run({}, { signal: new AbortController().signal } as never);
      const [old, recent, queued] = await Promise.all(ids.map(messageOf));
      assert.deepEqual([old!.text, old!.html], ['', null], 'the old body is gone');
      assert.deepEqual([old!.to_address, old!.status, old!.delivered_at, old!.subject], [before[0]!.to_address, 'delivered', at(31), before[0]!.subject], 'the record stays');
      assert.equal(recent!.text, before[1]!.text);
      assert.equal(recent!.html, before[1]!.html);
      assert.equal(queued!.text, before[2]!.text);
      // A day later the second one goes too; the link still works (it never depended on the body).
      now = new Date(now.getTime() + 2 * DAY);
      await webhookSweepHandler(h.deps.domain).run({}, { signal: new AbortController().signal } as never);
      assert.equal((await messageOf(ids[1]!)).text, '');
      const form = await db.selectFrom('recipients').select('form_id').where('id', '=', ids[0]!).executeTakeFirstOrThrow();
      const shown = (await h.request({ url: `/api/v1/forms/${form.form_id}`, as: h.actors.aTest })).json<{ recipients: Array<{ signing_url: string }> }>();
      assert.equal(new URL(shown.recipients[0]!.signing_url).pathname, /\/sign\/[A-Za-z0-9_-]{43}/.exec(before[0]!.text)![0]);
    });
  });
}
