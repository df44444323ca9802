import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { DIALECTS, PG_URL, createHarness, errorOf, type Harness } from '../harness.js';
import { FakeClock, startSmtpSink } from '../outbox/support/sending.js';
import { twoSignerTemplate } from '../signing/support.js';
import { createAndSend, eventTypes, getForm, postSign, signatureOf, tokenOf } from './support.js';

// Reminders (issue #23 item 2) with an injected clock: the schedule runs ten days in a moment, through a
// real SMTP conversation to an in-process server. Each promised reminder is kept exactly once, never
// after signing; a manual reminder is once an hour per recipient.

const T0 = '2026-03-02T08:00:00.000Z';
const DAY = 86_400_000;

for (const dialect of DIALECTS) {
  describe(`reminders (${dialect})`, () => {
    let h: Harness;
    let clock: FakeClock;
    let sink: Awaited<ReturnType<typeof startSmtpSink>>;
    let templateId: string;
    const remindersTo = (address: string) => sink.received.filter((m) => m.envelopeTo.includes(address) && /^Reminder: /.test(m.parsed.subject ?? ''));

    before(async () => {
      sink = await startSmtpSink();
      clock = new FakeClock(Date.parse(T0));
      h = await createHarness(dialect, { clock, env: { SMTP_URL: sink.url, MAIL_FROM: 'Formsign <sign@acme.test>', BASE_URL: 'https://sign.acme.test' } });
      templateId = await twoSignerTemplate(h, h.actors.aTest.partition);
    });
    after(async () => {
      await h.close();
      await sink.close();
    });

    it('every_days 2, max 3 over 10 days: exactly 3 to the one who never signs, none after signing to the other', async () => {
      const a = 'ada@example.com';
      const b = 'bob@example.com';
      const { form } = await createAndSend(h, h.actors.aTest, templateId, {
        recipients: [{ email: a, channel: 'email', name: 'Ada' }, { email: b, channel: 'email', name: 'Bob' }],
        reminders: { every_days: 2, max: 3 },
      });
      assert.deepEqual(form.reminders, { every_days: 2, max: 3 });
      assert.equal(form.signing_order, 'parallel');
      await h.deps.worker.runDue();
      assert.equal(sink.received.filter((m) => m.envelopeTo.includes(a)).length, 1, 'the invite');

      for (let day = 1; day <= 10; day++) {
        clock.advance(DAY);
        if (day === 3) {
          const signed = await postSign(h, tokenOf(form.recipients[1]!.signing_url), signatureOf(2));
          assert.equal(signed.statusCode, 200, signed.body);
        }
        await h.deps.worker.runDue();
      }
      const toA = remindersTo(a);
      assert.equal(toA.length, 3, 'three reminders to the recipient who did not sign');
      assert.equal(remindersTo(b).length, 1, 'one reminder (day 2) before signing on day 3, none after');
      // Same channel, same link, said as a reminder.
      const link = form.recipients[0]!.signing_url;
      for (const m of toA) {
        assert.equal(m.parsed.subject, 'Reminder: Account A asks you to sign "Residential lease"');
        assert.ok((m.parsed.text ?? '').includes(`Open the form: ${link}`), m.parsed.text);
        assert.match(m.parsed.text ?? '', /A reminder: Account A is still waiting for you/);
      }
      const rows = await h.deps.database.db.selectFrom('reminders').selectAll().where('form_id', '=', form.id).orderBy('created_at').execute();
      assert.deepEqual(rows.filter((r) => r.recipient_id === form.recipients[0]!.id).map((r) => [r.seq, r.kind, r.created_at]), [
        [1, 'scheduled', new Date(Date.parse(T0) + 2 * DAY).toISOString()],
        [2, 'scheduled', new Date(Date.parse(T0) + 4 * DAY).toISOString()],
        [3, 'scheduled', new Date(Date.parse(T0) + 6 * DAY).toISOString()],
      ]);
      // Each reminder is in the audit: the events list and the recipient's last_reminded_at.
      const types = await eventTypes(h, h.actors.aTest, form.id);
      assert.equal(types.filter((t) => t === 'form.reminded').length, 4, types.join());
      const now = await getForm(h, h.actors.aTest, form.id);
      assert.equal(now.recipients[0]!.last_reminded_at, new Date(Date.parse(T0) + 6 * DAY).toISOString());
    });

    it('manual remind: the unsigned recipients now; again within the hour → 429 reminder_too_soon with Retry-After; after it, allowed', async () => {
      const { form } = await createAndSend(h, h.actors.aTest, templateId, { recipients: [{ email: 'carol@example.com', channel: 'email' }, { email: 'dan@example.com', channel: 'email' }] });
      await h.deps.worker.runDue();
      const first = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/remind`, as: h.actors.aTest, json: {} });
      assert.equal(first.status, 200, first.body);
      const at = clock.now().toISOString();
      assert.deepEqual(first.json<{ recipients: Array<{ last_reminded_at: string }> }>().recipients.map((r) => r.last_reminded_at), [at, at]);
      await h.deps.worker.runDue();
      assert.equal(remindersTo('carol@example.com').length, 1);
      assert.equal(remindersTo('dan@example.com').length, 1);

      clock.advance(20 * 60_000);
      const again = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/remind`, as: h.actors.aTest, json: { recipients: [form.recipients[1]!.id] } });
      assert.equal(again.status, 429, again.body);
      assert.equal(errorOf(again).code, 'reminder_too_soon');
      assert.equal(errorOf(again).param, 'recipients[0]');
      assert.equal(again.headers['retry-after'], String(40 * 60));
      await h.deps.worker.runDue();
      assert.equal(remindersTo('dan@example.com').length, 1, 'nothing sent by the refused call');

      clock.advance(40 * 60_000);
      const later = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/remind`, as: h.actors.aTest, json: { recipients: [form.recipients[1]!.id] } });
      assert.equal(later.status, 200, later.body);
      await h.deps.worker.runDue();
      assert.equal(remindersTo('dan@example.com').length, 2);
      assert.equal(remindersTo('carol@example.com').length, 1, 'only the one named');
      assert.equal((await eventTypes(h, h.actors.aTest, form.id)).filter((t) => t === 'form.reminded').length, 3);
    });

    it('refuses cleanly: unknown or signed recipients (400), a draft or voided form (409), a form past expiry (409 form_expired)', async () => {
      const { form } = await createAndSend(h, h.actors.aTest, templateId, { recipients: [{ email: 'erin@example.com', channel: 'email' }, { email: 'finn@example.com', channel: 'email' }] });
      assert.equal((await postSign(h, tokenOf(form.recipients[0]!.signing_url), signatureOf(1))).statusCode, 200);
      const signed = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/remind`, as: h.actors.aTest, json: { recipients: [form.recipients[0]!.id] } });
      assert.equal(signed.status, 400);
      assert.deepEqual([errorOf(signed).code, errorOf(signed).param], ['parameter_invalid', 'recipients[0]']);
      assert.match(errorOf(signed).message, /has signed/);
      const unknown = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/remind`, as: h.actors.aTest, json: { recipients: ['rcp_000000000000000000000000'] } });
      assert.deepEqual([unknown.status, errorOf(unknown).code], [400, 'parameter_invalid']);

      const draft = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId } });
      const remindDraft = await h.request({ method: 'POST', url: `/api/v1/forms/${draft.json<{ id: string }>().id}/remind`, as: h.actors.aTest });
      assert.deepEqual([remindDraft.status, errorOf(remindDraft).code], [409, 'form_not_sendable']);

      assert.equal((await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/void`, as: h.actors.aTest, json: {} })).status, 200);
      const remindVoided = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/remind`, as: h.actors.aTest, json: {} });
      assert.deepEqual([remindVoided.status, errorOf(remindVoided).code], [409, 'form_not_sendable']);

      const { form: old } = await createAndSend(h, h.actors.aTest, templateId, { recipients: [{ email: 'gus@example.com', channel: 'email' }] });
      clock.advance(31 * DAY);
      const expired = await h.request({ method: 'POST', url: `/api/v1/forms/${old.id}/remind`, as: h.actors.aTest, json: {} });
      assert.deepEqual([expired.status, errorOf(expired).code], [409, 'form_expired']);
      const other = await h.request({ method: 'POST', url: `/api/v1/forms/${old.id}/remind`, as: h.actors.bTest, json: {} });
      assert.deepEqual([other.status, errorOf(other).code], [404, 'resource_not_found'], "another account's form is not found");
    });

    it('no reminder once the form is voided, expired or signed, even when it was due', async () => {
      const { form: voided } = await createAndSend(h, h.actors.aTest, templateId, { recipients: [{ email: 'hal@example.com', channel: 'email' }], reminders: { every_days: 1, max: 2 } });
      const { form: expiring } = await createAndSend(h, h.actors.aTest, templateId, { recipients: [{ email: 'ivy@example.com', channel: 'email' }], reminders: { every_days: 30, max: 1 } });
      assert.equal((await h.request({ method: 'POST', url: `/api/v1/forms/${voided.id}/void`, as: h.actors.aTest, json: {} })).status, 200);
      clock.advance(31 * DAY);
      await h.deps.worker.runDue();
      assert.equal(remindersTo('hal@example.com').length, 0);
      assert.equal(remindersTo('ivy@example.com').length, 0, 'day 30 is the expiry: nothing after it');
      const jobs = await h.deps.database.db.selectFrom('outbox').select(['status', 'payload']).where('kind', '=', 'form.remind').execute();
      const mine = jobs.filter((j) => [voided.id, expiring.id].some((id) => j.payload.includes(id)));
      assert.equal(mine.length, 3);
      assert.ok(mine.every((j) => j.status === 'done'), 'each promise ran once and found nothing to do');
    });

    it('a send validates the schedule (1–30 days, 1–10 reminders) and fixes it with the first send', async () => {
      const created = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId } });
      const id = created.json<{ id: string }>().id;
      const bad = await h.request({ method: 'POST', url: `/api/v1/forms/${id}/send`, as: h.actors.aTest, json: { recipients: [{ email: 'j@example.com', channel: 'email' }], reminders: { every_days: 31, max: 3 } } });
      assert.deepEqual([bad.status, errorOf(bad).code], [400, 'parameter_invalid']);
      const ok = await h.request({ method: 'POST', url: `/api/v1/forms/${id}/send`, as: h.actors.aTest, json: { recipients: [{ email: 'j@example.com', channel: 'email' }], reminders: { every_days: 3, max: 2 } } });
      assert.equal(ok.status, 200, ok.body);
      const change = await h.request({ method: 'POST', url: `/api/v1/forms/${id}/send`, as: h.actors.aTest, json: { recipients: [{ email: 'k@example.com', channel: 'email' }], reminders: { every_days: 5, max: 2 } } });
      assert.deepEqual([change.status, errorOf(change).code, errorOf(change).param], [400, 'parameter_invalid', 'reminders']);
    });
  });
}

describe('reminders with two workers on one PostgreSQL database', () => {
  let h: Harness;
  let second: Deps;
  let clock: FakeClock;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let dir: string;

  before(async () => {
    sink = await startSmtpSink();
    clock = new FakeClock(Date.parse(T0));
    const env = { SMTP_URL: sink.url, BASE_URL: 'https://sign.acme.test' };
    h = await createHarness('postgres', { clock, env });
    // A second worker on the same schema: its own pools and dispatcher, as a second process has.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-remind2-'));
    second = await createDeps(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', DATABASE_URL: PG_URL, ...env }), { pgSchema: h.deps.database.pgSchema!, clock, strictUnits: true });
  });
  after(async () => {
    await second.close();
    await h.close();
    await sink.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('every_days 2, max 3 over 10 days with both workers draining at once: still exactly 3 reminders', async () => {
    const templateId = await twoSignerTemplate(h, h.actors.aTest.partition);
    const { form } = await createAndSend(h, h.actors.aTest, templateId, { recipients: [{ email: 'zoe@example.com', channel: 'email' }], reminders: { every_days: 2, max: 3 } });
    for (let day = 0; day <= 10; day++) {
      await Promise.all([h.deps.worker.runDue(), second.worker.runDue(), h.deps.worker.runDue(), second.worker.runDue()]);
      clock.advance(DAY);
    }
    const reminders = sink.received.filter((m) => /^Reminder: /.test(m.parsed.subject ?? ''));
    assert.equal(reminders.length, 3, reminders.map((m) => m.parsed.subject).join());
    const rows = await h.deps.database.db.selectFrom('reminders').select('seq').where('form_id', '=', form.id).orderBy('seq').execute();
    assert.deepEqual(rows.map((r) => r.seq), [1, 2, 3]);
    const lockedBy = await h.deps.database.db.selectFrom('outbox').select(['locked_by', 'attempts']).where('kind', '=', 'form.remind').execute();
    assert.ok(lockedBy.every((j) => Number(j.attempts) === 1), 'each reminder job was claimed once');
  });
});
