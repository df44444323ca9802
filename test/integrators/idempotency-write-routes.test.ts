import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { IdempotencySlot } from '../../src/domain/idempotency/idempotency-slot.js';
import { createHarness, DIALECTS, type Actor, type Harness, type TestResponse } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';

// Issue 26: remind, void, reseal, expire, add an embed origin and the webhook test event used to store
// their Idempotency-Key answer just after their commit (in a transaction of its own, as the answer
// left): a process that died between the two left the write done and the key without its answer, so
// the retry was refused (409 idempotency_key_in_use) until the lease ran out and then ran the write
// AGAIN. Now each is a write route and the answer commits with the write. The failure is injected at
// exactly the old place — storing an answer on its own after the request ran fails — and the retry
// with the same key must replay the first answer byte for byte, the write done once.

interface FormBody { id: string; status: string; recipients: Array<{ id: string; last_reminded_at: string | null }>; sealing: { status: string } | null }

for (const dialect of DIALECTS) {
  describe(`write routes keep their idempotent answer through a failure after the commit (${dialect})`, () => {
    let h: Harness;
    let templateId: string;
    let as: Actor;
    before(async () => {
      h = await createHarness(dialect, { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
      as = h.actors.aTest;
      templateId = await seedTemplate(h, as.partition, 'Crash', new Date().toISOString());
    });
    after(() => h.close());

    const post = (url: string, key: string, json?: unknown) =>
      h.request({ method: 'POST', url, as, ...(json === undefined ? {} : { json }), headers: { 'idempotency-key': key } });

    /** The call, with every answer stored on its own after the request (the old path) failing as a crash would. */
    async function throughCrash(url: string, key: string, json?: unknown): Promise<TestResponse> {
      const storeAlone = IdempotencySlot.prototype.storeAlone;
      let storedAlone = 0;
      IdempotencySlot.prototype.storeAlone = async function () {
        storedAlone++;
        throw new Error('injected: the process died after the commit, before the answer was stored');
      };
      let first: TestResponse;
      try {
        first = await post(url, key, json);
      } finally {
        IdempotencySlot.prototype.storeAlone = storeAlone;
      }
      assert.equal(storedAlone, 0, `${url}: the answer was stored with the write, not after it`);
      const again = await post(url, key, json);
      assert.equal(again.headers['idempotent-replayed'], 'true', `${url}: the retry replays (${again.status} ${again.body})`);
      assert.equal(again.status, first.status);
      assert.ok(again.rawPayload.equals(first.rawPayload), `${url}: the same bytes`);
      return first;
    }

    async function sentForm(): Promise<FormBody> {
      const created = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId } });
      const id = created.json<{ id: string }>().id;
      const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${id}/send`, as, json: { recipients: [{ channel: 'email', email: 'crash@example.com' }] } });
      assert.equal(sent.status, 200, sent.body);
      return sent.json<FormBody>();
    }
    const eventsOf = async (formId: string, type: string) =>
      (await h.deps.database.db.selectFrom('events').select('id').where('form_id', '=', formId).where('type', '=', type).execute()).length;

    it('remind: one reminder', async () => {
      const form = await sentForm();
      const res = await throughCrash(`/api/v1/forms/${form.id}/remind`, 'crash-remind');
      assert.equal(res.status, 200, res.body);
      assert.ok(res.json<FormBody>().recipients[0]!.last_reminded_at);
      const rows = await h.deps.database.db.selectFrom('reminders').select('id').where('form_id', '=', form.id).execute();
      assert.equal(rows.length, 1, 'reminded once');
      assert.equal(await eventsOf(form.id, 'form.reminded'), 1);
    });

    it('void: voided once, one form.voided', async () => {
      const form = await sentForm();
      const res = await throughCrash(`/api/v1/forms/${form.id}/void`, 'crash-void', { reason: 'Wrong document' });
      assert.equal(res.json<FormBody>().status, 'voided', res.body);
      assert.equal(await eventsOf(form.id, 'form.voided'), 1);
    });

    it('expire (test mode): expired once, one form.expired', async () => {
      const form = await sentForm();
      const res = await throughCrash(`/api/v1/forms/${form.id}/expire`, 'crash-expire');
      assert.equal(res.json<FormBody>().status, 'expired', res.body);
      assert.equal(await eventsOf(form.id, 'form.expired'), 1);
    });

    it('reseal: one new seal job', async () => {
      const form = await sentForm();
      // Every recipient signed and the seal failed for good (as the evidence tests reach it through a TSA that is down).
      await h.deps.database.transact(async (trx) => {
        await trx.updateTable('recipients').set({ status: 'signed' }).where('form_id', '=', form.id).execute();
        await trx.updateTable('forms').set({ sealing_status: 'failed', sealing_attempts: 12, sealing_error: 'TSA down' }).where('id', '=', form.id).execute();
      });
      const res = await throughCrash(`/api/v1/forms/${form.id}/reseal`, 'crash-reseal');
      assert.equal(res.status, 200, res.body);
      assert.equal(res.json<FormBody>().sealing?.status, 'pending');
      const jobs = await h.deps.database.db.selectFrom('outbox').select('payload').where('kind', '=', 'form.seal').execute();
      assert.equal(jobs.filter((j) => j.payload.includes(form.id)).length, 1, 'one seal job');
    });

    it('add an embed origin: the 201 of the first call (a second call without the key answers 200)', async () => {
      const res = await throughCrash('/api/v1/embed/origins', 'crash-origin', { origin: 'https://crash.example.com' });
      assert.equal(res.status, 201, res.body);
      assert.equal((await h.request({ method: 'POST', url: '/api/v1/embed/origins', as, json: { origin: 'https://crash.example.com' } })).status, 200);
    });

    it('the webhook test event: one delivery', async () => {
      const hook = await h.request({ method: 'POST', url: '/api/v1/webhooks', as, json: { url: 'http://127.0.0.1:9/hook', events: ['form.created'] } });
      assert.equal(hook.status, 201, hook.body);
      const id = hook.json<{ id: string }>().id;
      const res = await throughCrash(`/api/v1/webhooks/${id}/test`, 'crash-test-event');
      assert.equal(res.status, 200, res.body);
      assert.equal(res.json<{ event_type: string }>().event_type, 'webhook.test');
      const rows = await h.deps.database.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', id).execute();
      assert.equal(rows.length, 1, 'one delivery');
    });
  });
}
