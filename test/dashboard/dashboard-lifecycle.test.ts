import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { errorCode, signedUp, uploadedTemplate, type Visitor } from './support.js';

// Remind, void and the send options from the dashboard (issue 24 item 1) on both dialects: the
// session routes call the API's use cases, need a session (401) and the CSRF token (403), find only
// the account's own forms (404), and count as the API endpoint they mirror.

interface Recipient { id: string; email?: string; status: string; last_reminded_at: string | null; declined_at: string | null }
interface Form { id: string; status: string; signing_order: string; reminders: { every_days: number; max: number } | null; voided_at: string | null; void_reason: string | null; recipients: Recipient[] }

for (const dialect of DIALECTS) {
  describe(`dashboard remind, void, signing order (${dialect})`, () => {
    let h: Harness;
    let a: Visitor;
    let b: Visitor;
    let templateId: string;

    const sentForm = async (body: Record<string, unknown>): Promise<Form> => {
      const created = await a.call('POST', '/dashboard/api/test/forms', { json: { template_id: templateId, name: 'Lease' } });
      assert.equal(created.status, 201, created.body);
      const sent = await a.call('POST', `/dashboard/api/test/forms/${created.json<Form>().id}/send`, { json: body });
      assert.equal(sent.status, 200, sent.body);
      return sent.json<Form>();
    };

    before(async () => {
      h = await createHarness(dialect);
      a = await signedUp(h);
      b = await signedUp(h);
      templateId = await uploadedTemplate(a);
    });
    after(() => h.close());

    it('remind and void need a session (401), the CSRF token (403), and the own account (404)', async () => {
      const form = await sentForm({ recipients: [{ email: 'ada@example.com', channel: 'email' }] });
      const routes: Array<[string, unknown]> = [[`/dashboard/api/test/forms/${form.id}/remind`, {}], [`/dashboard/api/test/forms/${form.id}/void`, { reason: 'x' }]];
      for (const [url, json] of routes) {
        const anon = await h.app.inject({ method: 'POST', url, payload: json as object });
        assert.equal(anon.statusCode, 401, url);
        assert.equal(JSON.parse(anon.body).error.code, 'session_required');
        for (const csrf of [false as const, 'not-the-token']) {
          const res = await a.call('POST', url, { json, csrf });
          assert.equal(res.status, 403, `${url} ${String(csrf)}: ${res.body}`);
          assert.equal(errorCode(res), 'csrf_token_invalid');
        }
        const foreign = await b.call('POST', url, { json });
        assert.equal(foreign.status, 404, `${url}: ${foreign.body}`);
        assert.equal(errorCode(foreign), 'resource_not_found');
      }
      const still = (await a.call('GET', `/dashboard/api/test/forms/${form.id}`)).json<Form>();
      assert.equal(still.status, 'sent', 'nothing was voided');
      assert.equal(still.recipients[0]!.last_reminded_at, null, 'nobody was reminded');
    });

    it('remind sends a reminder; again within the hour answers 429 reminder_too_soon with a message and Retry-After', async () => {
      const form = await sentForm({ recipients: [{ email: 'ada@example.com', channel: 'email' }] });
      const first = await a.call('POST', `/dashboard/api/test/forms/${form.id}/remind`, { json: {} });
      assert.equal(first.status, 200, first.body);
      assert.ok(first.json<Form>().recipients[0]!.last_reminded_at, 'the recipient was reminded');
      assert.ok(first.headers['x-ratelimit-limit'], 'counted under the API endpoint\'s window');
      const again = await a.call('POST', `/dashboard/api/test/forms/${form.id}/remind`, { json: {} });
      assert.equal(again.status, 429, again.body);
      assert.equal(errorCode(again), 'reminder_too_soon');
      assert.match(again.json<{ error: { message: string } }>().error.message, /once an hour; try again in \d+ minutes/);
      assert.ok(Number(again.headers['retry-after']) > 3000);
      const events = (await a.call('GET', `/dashboard/api/test/forms/${form.id}/events`)).json<{ data: Array<{ type: string }> }>().data.map((e) => e.type);
      assert.equal(events.filter((t) => t === 'form.reminded').length, 1);
    });

    it('void makes the form voided with the reason; voiding again answers 409 form_not_voidable', async () => {
      const form = await sentForm({ recipients: [{ email: 'ada@example.com', channel: 'email' }] });
      const voided = await a.call('POST', `/dashboard/api/test/forms/${form.id}/void`, { json: { reason: 'Wrong rent amount' } });
      assert.equal(voided.status, 200, voided.body);
      const f = voided.json<Form>();
      assert.equal(f.status, 'voided');
      assert.equal(f.void_reason, 'Wrong rent amount');
      assert.ok(f.voided_at);
      assert.equal((await a.call('GET', `/dashboard/api/test/forms/${form.id}`)).json<Form>().status, 'voided');
      const again = await a.call('POST', `/dashboard/api/test/forms/${form.id}/void`, { json: {} });
      assert.equal(again.status, 409, again.body);
      assert.equal(errorCode(again), 'form_not_voidable');
      const remind = await a.call('POST', `/dashboard/api/test/forms/${form.id}/remind`, { json: {} });
      assert.equal(remind.status, 409);
      const long = await a.call('POST', `/dashboard/api/test/forms/${(await sentForm({ recipients: [{ email: 'x@example.com', channel: 'email' }] })).id}/void`, { json: { reason: 'x'.repeat(501) } });
      assert.equal(long.status, 400, 'the API\'s schema applies');
    });

    it('send with sequential order and reminders: the second recipient is waiting, the schedule is kept', async () => {
      const f = await sentForm({
        signing_order: 'sequential',
        reminders: { every_days: 3, max: 2 },
        recipients: [{ email: 'first@example.com', channel: 'email' }, { email: 'second@example.com', channel: 'email' }],
      });
      assert.equal(f.signing_order, 'sequential');
      assert.deepEqual(f.reminders, { every_days: 3, max: 2 });
      assert.deepEqual(f.recipients.map((r) => [r.email, r.status]), [['first@example.com', 'sent'], ['second@example.com', 'waiting']]);
      const bad = await a.call('POST', `/dashboard/api/test/forms/${f.id}/send`, { json: { reminders: { every_days: 0, max: 2 }, recipients: [{ email: 'x@example.com', channel: 'email' }] } });
      assert.equal(bad.status, 400, bad.body);
    });
  });
}
