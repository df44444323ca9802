import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkRetentionDays, purgePastRetention, setRetention } from '../../src/domain/forms/retention.js';
import { enqueue } from '../../src/outbox/enqueue.js';
import { formsRetention } from '../../src/outbox/jobs/forms-retention.job.js';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';
import { FakeClock } from '../outbox/support/sending.js';
import { twoSignerTemplate } from '../signing/support.js';
import { createAndSend } from './support.js';

// Retention and legal hold (issue 40): finished forms past the account's retention_days are purged by
// the daily job, exactly once however many runs overlap, with a count in /metrics; a form on legal
// hold is purged neither by retention nor by DELETE (409 form_on_hold) until the hold is released.

const T0 = '2026-06-01T12:00:00.000Z';
const DAY = 86_400_000;

interface FormBody { id: string; status: string; legal_hold?: { reason: string; placed_by: string | null; placed_at: string } }

for (const dialect of DIALECTS) {
  describe(`retention and legal hold (${dialect})`, () => {
    let h: Harness;
    let clock: FakeClock;
    let templateId: string;

    before(async () => {
      clock = new FakeClock(Date.parse(T0));
      h = await createHarness(dialect, { clock });
      templateId = await twoSignerTemplate(h, h.actors.aTest.partition);
    });
    after(async () => {
      await h.close();
    });

    const voided = async (who: string): Promise<string> => {
      const { form } = await createAndSend(h, h.actors.aTest, templateId, { recipients: [{ email: `${who}@hold.example`, channel: 'email', name: who }] });
      const res = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/void`, as: h.actors.aTest, json: {} });
      assert.equal(res.status, 200, res.body);
      return form.id;
    };
    const statusOf = async (id: string) => (await h.request({ url: `/api/v1/forms/${id}`, as: h.actors.aTest })).json<FormBody>().status;

    it('a legal hold (reason, who, when) blocks DELETE with 409 form_on_hold until released', async () => {
      const as = h.actors.aTest;
      const id = await voided('held');
      const missing = await h.request({ method: 'POST', url: `/api/v1/forms/${id}/hold`, as, json: {} });
      assert.deepEqual([missing.status, errorOf(missing).code], [400, 'parameter_missing']);
      const held = await h.request({ method: 'POST', url: `/api/v1/forms/${id}/hold`, as, json: { reason: 'Dispute 2026-17' } });
      assert.equal(held.status, 200, held.body);
      assert.deepEqual(held.json<FormBody>().legal_hold, { reason: 'Dispute 2026-17', placed_by: as.keyId, placed_at: clock.now().toISOString() });
      assert.deepEqual((await h.request({ url: `/api/v1/forms/${id}`, as })).json<FormBody>().legal_hold, held.json<FormBody>().legal_hold);
      const refused = await h.request({ method: 'DELETE', url: `/api/v1/forms/${id}`, as });
      assert.deepEqual([refused.status, errorOf(refused).code], [409, 'form_on_hold']);
      assert.match(errorOf(refused).message, /Dispute 2026-17/);
      assert.equal(await statusOf(id), 'voided');
      const released = await h.request({ method: 'DELETE', url: `/api/v1/forms/${id}/hold`, as });
      assert.equal(released.status, 200, released.body);
      assert.equal(released.json<FormBody>().legal_hold, undefined);
      assert.equal((await h.request({ method: 'DELETE', url: `/api/v1/forms/${id}`, as })).status, 200);
      assert.equal(await statusOf(id), 'deleted');
      const other = await h.request({ method: 'POST', url: `/api/v1/forms/${id}/hold`, as: h.actors.bTest, json: { reason: 'x' } });
      assert.equal(other.status, 404);
    });

    it('retention purges exactly the finished forms past it, once however many runs overlap, never a held one; counted in /metrics', async () => {
      const as = h.actors.aTest;
      for (const bad of [0, 3651, 1.5, 'ten', -1]) assert.throws(() => checkRetentionDays(bad), /retention_days must be a whole number of days from 1 to 3650/);
      assert.equal(checkRetentionDays('off'), null);
      const old = await voided('old');
      const kept = await voided('kept');
      assert.equal((await h.request({ method: 'POST', url: `/api/v1/forms/${kept}/hold`, as, json: { reason: 'Audit' } })).status, 200);
      clock.advance(5 * DAY);
      const newer = await voided('newer');
      const { form: out } = await createAndSend(h, as, templateId, { recipients: [{ email: 'out@hold.example', channel: 'email' }] });
      // Off by default: nothing is purged however old.
      clock.advance(7 * DAY);
      assert.equal(await purgePastRetention(h.deps.domain), 0);
      assert.deepEqual((await setRetention(h.deps.domain, as.partition.accountId, 10)).retention_days, 10);

      // Day 12: only `old` is past 10 days; two overlapping runs purge it once.
      const runs = await Promise.all([purgePastRetention(h.deps.domain), purgePastRetention(h.deps.domain)]);
      assert.equal(runs[0]! + runs[1]!, 1);
      assert.deepEqual(await Promise.all([old, kept, newer, out.id].map(statusOf)), ['deleted', 'voided', 'voided', 'sent']);
      const events = (await h.request({ url: `/api/v1/forms/${old}/events?limit=100`, as })).json<{ data: Array<{ type: string }> }>().data;
      assert.equal(events.filter((e) => e.type === 'form.deleted').length, 1, 'one form.deleted');

      // Day 16, through the scheduled job: `newer` too; the held one stays; the form in flight is never touched.
      clock.advance(4 * DAY);
      const metricsBefore = await purgedMetric(h);
      await h.deps.domain.transact((trx) => enqueue(trx, as.partition, formsRetention, {}, { now: clock.now().toISOString() }));
      for (let i = 0; i < 5 && (await statusOf(newer)) !== 'deleted'; i++) await h.deps.worker.runDue();
      assert.deepEqual(await Promise.all([old, kept, newer, out.id].map(statusOf)), ['deleted', 'voided', 'deleted', 'sent']);
      assert.equal((await purgedMetric(h)) - metricsBefore, 1);
      assert.equal(await purgePastRetention(h.deps.domain), 0, 'nothing is due twice');
      await setRetention(h.deps.domain, as.partition.accountId, 'off');
    });
  });
}

async function purgedMetric(h: Harness): Promise<number> {
  const res = await h.app.inject({ url: '/metrics' });
  const line = /formsign_forms_purged_total\{reason="retention"\} (\d+)/.exec(res.body);
  assert.ok(line, res.body.slice(0, 200));
  return Number(line[1]);
}
