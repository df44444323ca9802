import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FormsTable } from '../../src/db/tables.js';
import { createForm } from '../../src/domain/forms/create-form.js';
import { expireForms } from '../../src/domain/forms/expire-forms.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';
import { FakeClock } from './support/sending.js';

const T0 = '2026-05-01T00:00:00.000Z';
const DAY = 86_400_000;
const at = (days: number) => new Date(Date.parse(T0) + days * DAY).toISOString();

for (const dialect of DIALECTS) {
  describe(`expiry sweep (${dialect})`, () => {
    let h: Harness;
    let clock: FakeClock;
    let templateId: string;

    const makeForm = async (status: FormsTable['status'], expiresAt: string | null): Promise<string> => {
      const p = h.actors.aTest.partition;
      const { form } = await createForm(h.deps.domain, p, { template_id: templateId });
      const id = (JSON.parse(form.json) as { id: string }).id;
      await h.deps.database.transact((trx) =>
        trx.updateTable('forms').set({ status, expires_at: expiresAt, sent_at: status === 'draft' ? null : T0 }).where('id', '=', id).execute().then(() => undefined),
      );
      return id;
    };
    const statusOf = async (id: string) => (await h.deps.database.db.selectFrom('forms').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    const expiredEvents = async (id: string) => h.deps.database.db.selectFrom('events').selectAll().where('form_id', '=', id).where('type', '=', 'form.expired').execute();

    before(async () => {
      clock = new FakeClock(Date.parse(T0));
      h = await createHarness(dialect, { clock });
      templateId = await seedTemplate(h, h.actors.aTest.partition, 'Lease', T0);
    });
    after(() => h.close());

    it('expires sent and viewed forms at expires_at with exactly one form.expired each, even with two sweepers at once', async () => {
      const due = [...(await Promise.all(Array.from({ length: 12 }, () => makeForm('sent', at(1))))), ...(await Promise.all(Array.from({ length: 12 }, () => makeForm('viewed', at(1)))))];
      const draft = await makeForm('draft', null);
      const signed = await makeForm('signed', at(1));
      const later = await makeForm('sent', at(10));

      clock.set(new Date(Date.parse(at(1)) - 1).toISOString());
      assert.equal(await expireForms(h.deps.domain), 0, 'a millisecond before: nothing');

      clock.set(at(1));
      const [a, b] = await Promise.all([expireForms(h.deps.domain, { batchSize: 5 }), expireForms(h.deps.domain, { batchSize: 5 })]);
      assert.equal(a + b, due.length, `the two sweepers expired ${a} and ${b}`);
      for (const id of due) {
        assert.equal(await statusOf(id), 'expired');
        const events = await expiredEvents(id);
        assert.equal(events.length, 1, `one form.expired for ${id}`);
        assert.equal(events[0]?.created_at, at(1));
      }
      assert.deepEqual([await statusOf(draft), await statusOf(signed), await statusOf(later)], ['draft', 'signed', 'sent']);
      assert.equal((await expiredEvents(later)).length, 0);
      assert.equal(await expireForms(h.deps.domain), 0, 'idempotent');
      assert.equal((await expiredEvents(due[0]!)).length, 1);
    });

    it('the scheduled job sweeps through the worker, and the API shows the form expired with its event', async () => {
      const id = await makeForm('sent', at(20));
      clock.set(at(20));
      await h.deps.worker.runDue();
      assert.equal(await statusOf(id), 'expired');
      const res = await h.request({ url: `/api/v1/forms/${id}`, as: h.actors.aTest });
      assert.equal(res.json<{ status: string }>().status, 'expired');
      const events = await h.request({ url: `/api/v1/forms/${id}/events`, as: h.actors.aTest });
      const list = events.json<{ data: Array<{ type: string; data: { object: { status: string } } }> }>().data;
      assert.deepEqual(list.map((e) => [e.type, e.data.object.status]), [['form.expired', 'expired'], ['form.created', 'draft']]);
      const sweep = await h.deps.database.db.selectFrom('outbox').selectAll().where('kind', '=', 'forms.expire').execute();
      assert.equal(sweep.length, 1);
      assert.deepEqual([sweep[0]?.status, sweep[0]?.run_at], ['pending', new Date(Date.parse(at(20)) + 60_000).toISOString()]);
    });

    it('a form every recipient has signed, waiting for its seal, is not expired under it', async () => {
      const p = h.actors.aTest.partition;
      const waiting = await makeForm('viewed', at(30));
      const pending = await makeForm('viewed', at(30));
      const now = new Date().toISOString();
      for (const [form, statuses] of [[waiting, ['signed', 'signed']], [pending, ['signed', 'sent']]] as const) {
        for (const [i, status] of statuses.entries()) {
          await h.deps.database.db.insertInto('recipients').values({
            id: `rcp_${form.slice(5, 28)}${i}`, account_id: p.accountId, mode: p.mode, form_id: form, position: i, signer: i + 1, name: `R${i}`,
            email: `r${i}@example.com`, phone: null, channel: 'email', address_key: `r${i}@example.com`, token_hash: `${form}-${i}`, status,
            delivery_status: 'delivered', delivery_error: null, sent_at: T0, viewed_at: null, signed_at: status === 'signed' ? T0 : null,
            viewed_ip: null, viewed_user_agent: null, signed_ip: null, signed_user_agent: null, created_at: now, updated_at: now,
          }).execute();
        }
      }
      clock.set(at(30));
      await expireForms(h.deps.domain);
      assert.deepEqual([await statusOf(waiting), await statusOf(pending)], ['viewed', 'expired']);
      assert.equal((await expiredEvents(waiting)).length, 0);
    });
  });
}
