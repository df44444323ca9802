import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { expireFormById } from '../../src/domain/forms/expire-form-now.js';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';

// Issue 26, defect 11: `expires_in_days` cannot be below 1 and nothing expired a form on demand, so an
// integrator could not see `form.expired`. POST /api/v1/forms/{id}/expire (test keys) and
// `formsign forms expire ID` record it as the scheduled sweep does.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Form { id: string; status: string; expires_at: string | null; recipients: Array<{ signing_url: string }> }

for (const dialect of DIALECTS) {
  describe(`expiring a form now (${dialect})`, () => {
    let h: Harness;
    let templateId: string;
    before(async () => {
      h = await createHarness(dialect);
      templateId = await seedTemplate(h, h.actors.aTest.partition, 'Probe', '2026-01-01T00:00:00.000Z');
    });
    after(() => h.close());

    const sentForm = async (as = h.actors.aTest) => {
      const t = as === h.actors.aTest ? templateId : await seedTemplate(h, as.partition, 'Live', '2026-01-01T00:00:00.000Z');
      const form = (await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: t } })).json<Form>();
      const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/send`, as, json: { recipients: [{ channel: 'email', email: 'a@example.com' }] } });
      assert.equal(sent.status, 200, sent.body);
      return sent.json<Form>();
    };
    const events = async (formId: string, as = h.actors.aTest) =>
      (await h.request({ url: `/api/v1/forms/${formId}/events`, as })).json<{ data: Array<{ type: string; data: { object: Form } }> }>().data;

    it('a test key expires a sent form at once: status expired, expires_at now, one form.expired carrying the expired form, the signing link closed', async () => {
      const form = await sentForm();
      assert.ok(form.expires_at && Date.parse(form.expires_at) > Date.now() + 86_400_000 * 29);
      const res = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/expire`, as: h.actors.aTest });
      assert.equal(res.status, 200, res.body);
      const expired = res.json<Form>();
      assert.equal(expired.status, 'expired');
      assert.ok(Math.abs(Date.parse(expired.expires_at!) - Date.now()) < 60_000, expired.expires_at!);
      assert.deepEqual((await h.request({ url: `/api/v1/forms/${form.id}`, as: h.actors.aTest })).json<Form>().status, 'expired');
      const evs = (await events(form.id)).filter((e) => e.type === 'form.expired');
      assert.equal(evs.length, 1);
      assert.equal(evs[0]!.data.object.status, 'expired');
      // The link no longer opens a signing page.
      const page = await h.app.inject({ url: new URL(form.recipients[0]!.signing_url).pathname });
      assert.notEqual(page.statusCode, 200);

      // Again: 409 form_expired, and no second event.
      const again = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/expire`, as: h.actors.aTest });
      assert.deepEqual([again.status, errorOf(again).code], [409, 'form_expired']);
      assert.equal((await events(form.id)).filter((e) => e.type === 'form.expired').length, 1);
    });

    it('a draft → 409 form_not_sendable; an unknown or other-partition form → 404; a body → 400', async () => {
      const draft = (await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId } })).json<Form>();
      const res = await h.request({ method: 'POST', url: `/api/v1/forms/${draft.id}/expire`, as: h.actors.aTest });
      assert.deepEqual([res.status, errorOf(res).code], [409, 'form_not_sendable']);
      assert.match(errorOf(res).message, /not been sent/);
      const other = await sentForm();
      const b = await h.request({ method: 'POST', url: `/api/v1/forms/${other.id}/expire`, as: h.actors.bTest });
      assert.deepEqual([b.status, errorOf(b).code], [404, 'resource_not_found']);
      const body = await h.request({ method: 'POST', url: `/api/v1/forms/${other.id}/expire`, as: h.actors.aTest, json: { now: true } });
      assert.deepEqual([body.status, errorOf(body).code], [400, 'parameter_unknown']);
      assert.equal((await h.request({ url: `/api/v1/forms/${other.id}`, as: h.actors.aTest })).json<Form>().status, 'sent');
    });

    it('a live key: the operation does not exist (404 route_not_found), the live form stays sent', async () => {
      const live = await sentForm(h.actors.aLive);
      const res = await h.request({ method: 'POST', url: `/api/v1/forms/${live.id}/expire`, as: h.actors.aLive });
      assert.deepEqual([res.status, errorOf(res).code], [404, 'route_not_found']);
      assert.match(errorOf(res).message, /test mode only/);
      assert.equal((await h.request({ url: `/api/v1/forms/${live.id}`, as: h.actors.aLive })).json<Form>().status, 'sent');
      // The operator's path expires any form, live ones included, with the same event.
      const form = await expireFormById(h.deps.domain, live.id);
      assert.equal(JSON.parse(form.json).status, 'expired');
      assert.equal((await events(live.id, h.actors.aLive)).filter((e) => e.type === 'form.expired').length, 1);
    });
  });
}

describe('formsign forms expire ID (the operator command)', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness('sqlite');
  });
  after(() => h.close());

  it('expires the form, prints it with --json, and refuses an unknown id with one line and exit 1', async () => {
    const templateId = await seedTemplate(h, h.actors.aLive.partition, 'Live', '2026-01-01T00:00:00.000Z');
    const form = (await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aLive, json: { template_id: templateId } })).json<Form>();
    await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/send`, as: h.actors.aLive, json: { recipients: [{ channel: 'email', email: 'a@example.com' }] } });
    const run = (...args: string[]) => spawnSync(process.execPath, ['bin/formsign.js', ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', DATA_DIR: h.dataDir, LOG_LEVEL: 'warn' }, encoding: 'utf8', timeout: 120_000 });
    const r = run('forms', 'expire', form.id, '--json');
    assert.equal(r.status, 0, r.stderr);
    const printed = JSON.parse(r.stdout) as Form;
    assert.deepEqual([printed.id, printed.status], [form.id, 'expired']);
    const events = (await h.request({ url: `/api/v1/forms/${form.id}/events`, as: h.actors.aLive })).json<{ data: Array<{ type: string }> }>().data;
    assert.equal(events.filter((e) => e.type === 'form.expired').length, 1);
    const missing = run('forms', 'expire', 'form_nope');
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /No form with id 'form_nope'/);
  });
});
