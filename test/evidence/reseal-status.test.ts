import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FormRow } from '../../src/db/tables.js';
import { RESEAL_STALE_MS } from '../../src/domain/signing/reseal-form.js';
import { createHarness, DIALECTS, errorOf, type Actor, type Harness } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';

// Reseal looks at the whole form, not only at its `sealing` (the review of session 11): only a form
// every recipient signed, still out (sent/viewed), whose seal failed for good or whose pending seal is
// stuck (its due attempt RESEAL_STALE_MS overdue) is sealed again. A draft, declined, voided, expired
// or signed form answers 409 form_not_resealable and nothing changes — before, a voided form whose
// seal had failed was accepted, and its sealing stayed `pending` for ever (the seal job skips it).

type Patch = Partial<Pick<FormRow, 'status' | 'sealing_status' | 'sealing_next_at' | 'sealing_attempts'>>;

for (const dialect of DIALECTS) {
  describe(`reseal checks the form's status (${dialect})`, () => {
    let h: Harness;
    let as: Actor;
    let templateId: string;
    before(async () => {
      h = await createHarness(dialect);
      as = h.actors.aTest;
      templateId = await seedTemplate(h, as.partition, 'Reseal', new Date().toISOString());
    });
    after(() => h.close());

    /** A form sent to two recipients, then put in the state under test (as the flows reach it). */
    async function formIn(patch: Patch, signed: 'all' | 'one' | 'none', signedAt = new Date().toISOString()): Promise<string> {
      const id = (await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId } })).json<{ id: string }>().id;
      if (patch.status !== 'draft') {
        const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${id}/send`, as, json: { recipients: [{ channel: 'email', email: 'a@example.com' }, { channel: 'email', email: 'b@example.com' }] } });
        assert.equal(sent.status, 200, sent.body);
      }
      await h.deps.database.transact(async (trx) => {
        const recipients = await trx.selectFrom('recipients').select('id').where('form_id', '=', id).orderBy('position').execute();
        const signedIds = signed === 'all' ? recipients.map((r) => r.id) : signed === 'one' ? recipients.slice(0, 1).map((r) => r.id) : [];
        if (signedIds.length > 0) await trx.updateTable('recipients').set({ status: 'signed', signed_at: signedAt }).where('id', 'in', signedIds).execute();
        await trx.updateTable('forms').set(patch).where('id', '=', id).execute();
      });
      return id;
    }
    const reseal = (id: string) => h.request({ method: 'POST', url: `/api/v1/forms/${id}/reseal`, as });
    const sealJobs = async (id: string) => (await h.deps.database.db.selectFrom('outbox').select('payload').where('kind', '=', 'form.seal').execute()).filter((j) => j.payload.includes(id)).length;
    const sealingOf = async (id: string) => (await h.deps.database.db.selectFrom('forms').select(['status', 'sealing_status']).where('id', '=', id).executeTakeFirstOrThrow());

    const longAgo = () => new Date(Date.now() - RESEAL_STALE_MS - 60_000).toISOString();

    it('a draft, declined, voided, expired or signed form, or one not every recipient signed: 409 form_not_resealable, nothing changes', async () => {
      const cases: Array<[string, Patch, 'all' | 'one' | 'none', RegExp]> = [
        ['draft', { status: 'draft' }, 'none', /it is draft/],
        ['declined', { status: 'declined', sealing_status: 'failed' }, 'one', /it is declined/],
        // A voided or expired form whose seal had failed (a state older code could leave): the seal job would skip it.
        ['voided', { status: 'voided', sealing_status: 'failed' }, 'all', /it is voided/],
        ['expired', { status: 'expired', sealing_status: 'failed' }, 'all', /it is expired/],
        ['signed', { status: 'signed', sealing_status: 'sealed' }, 'all', /it is signed/],
        ['half signed', { status: 'viewed', sealing_status: 'failed' }, 'one', /not every signer and approver is done/],
        ['pending on schedule', { status: 'sent', sealing_status: 'pending', sealing_attempts: 2, sealing_next_at: new Date(Date.now() + 60_000).toISOString() }, 'all', /pending and still being retried/],
        // Its first attempt is due since the last signature, moments ago.
        ['pending, first attempt just due', { status: 'sent', sealing_status: 'pending', sealing_next_at: null }, 'all', /pending and still being retried/],
      ];
      for (const [name, patch, signed, why] of cases) {
        const id = await formIn(patch, signed);
        const before = await sealingOf(id);
        const res = await reseal(id);
        assert.equal(res.status, 409, `${name}: ${res.body}`);
        assert.equal(errorOf(res).code, 'form_not_resealable', name);
        assert.equal(errorOf(res).type, 'conflict_error', name);
        assert.match(errorOf(res).message, why, name);
        assert.deepEqual(await sealingOf(id), before, `${name}: unchanged`);
        assert.equal(await sealJobs(id), 0, `${name}: no seal job`);
      }
    });

    it('every recipient signed and the seal failed, or its pending seal is stuck: sealed again (pending, one new job)', async () => {
      for (const [name, patch, signedAt] of [
        ['failed', { status: 'viewed', sealing_status: 'failed', sealing_attempts: 12 }, undefined],
        ['pending, overdue', { status: 'sent', sealing_status: 'pending', sealing_attempts: 3, sealing_next_at: longAgo() }, undefined],
        // Its first attempt, due at the last signature, never ran.
        ['pending, never attempted, the last signature long ago', { status: 'sent', sealing_status: 'pending', sealing_next_at: null }, longAgo()],
      ] as Array<[string, Patch, string | undefined]>) {
        const id = await formIn(patch, 'all', signedAt);
        const res = await reseal(id);
        assert.equal(res.status, 200, `${name}: ${res.body}`);
        const form = res.json<{ id: string; status: string; sealing: { status: string; attempts: number; last_error: string | null; next_attempt_at: string | null } }>();
        assert.deepEqual([form.id, form.status, form.sealing], [id, patch.status, { status: 'pending', attempts: 0, last_error: null, next_attempt_at: null }], name);
        assert.equal(await sealJobs(id), 1, `${name}: one seal job`);
      }
    });
  });
}
