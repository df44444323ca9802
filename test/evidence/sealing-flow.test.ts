// Seals that fail closed, end to end through the real worker on both stores: with TSA_URLS set and
// every TSA down (one answering 500, one hanging) the last signature leads to no seal — the form
// shows `sealing` pending with its attempts, error and next attempt, then failed after the last
// attempt; it never becomes `signed` and `form.signed` is not emitted. Once the TSA is back,
// `POST /reseal` seals it (B-LTA: pdfsig, the TSA's document timestamp) and `form.signed` is emitted
// exactly once. Reseal is refused (409) unless sealing failed; the CLI does the same.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SEAL_COMMANDS } from '../../src/cli/seal-commands.js';
import { createHarness, DIALECTS, errorOf, type Harness } from '../harness.js';
import { pdfsig } from '../shared/pdf-tools.js';
import { makeTestTsaCa, startTsa, type LoopbackTsa, type TestTsaCa } from '../shared/tsa.js';
import { SIGN_HEADERS, sendTo, strokePng, twoSignerTemplate } from '../signing/support.js';

interface Sealing { status: 'pending' | 'sealed' | 'failed'; attempts: number; last_error: string | null; next_attempt_at: string | null }
interface FormBody { status: string; sealing: Sealing | null; completed_at: string | null }

const ATTEMPTS = 3;

for (const dialect of DIALECTS) {
  describe(`sealing that fails closed, and reseal (${dialect})`, () => {
    let ca: TestTsaCa;
    let primary: LoopbackTsa;
    let backup: LoopbackTsa;
    let h: Harness;

    before(async () => {
      ca = makeTestTsaCa();
      primary = await startTsa(ca, { mode: 'fail' });
      backup = await startTsa(ca, { mode: 'hang' });
      h = await createHarness(dialect, {
        env: { BASE_URL: 'http://localhost:3000', TSA_URLS: `${primary.url},${backup.url}`, TSA_TIMEOUT_MS: '3000' },
        worker: { retryPolicies: { 'form.seal': { maxAttempts: ATTEMPTS, baseMs: 300, maxMs: 600 } } },
      });
      await h.deps.worker.start();
    });
    after(async () => {
      await h?.deps.worker.stop();
      await h?.close();
      await Promise.all([primary?.close(), backup?.close()]);
      ca?.remove();
    });

    const sign = (token: string, values: Record<string, unknown>) =>
      h.app.inject({ method: 'POST', url: `/sign/${token}`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: JSON.stringify({ values, consent: true }) });
    const getForm = async (id: string): Promise<FormBody> => (await h.request({ url: `/api/v1/forms/${id}`, as: h.actors.aTest })).json<FormBody>();
    const eventTypes = async (id: string): Promise<string[]> =>
      (await h.request({ url: `/api/v1/forms/${id}/events?limit=100`, as: h.actors.aTest })).json<{ data: Array<{ type: string }> }>().data.map((e) => e.type);
    async function until(id: string, done: (f: FormBody) => boolean, what: string): Promise<FormBody> {
      const deadline = Date.now() + 90_000;
      let form = await getForm(id);
      while (!done(form)) {
        assert.ok(Date.now() < deadline, `${what} within 90 s; last seen ${JSON.stringify(form.sealing)} (${form.status})`);
        await new Promise((r) => setTimeout(r, 100));
        form = await getForm(id);
      }
      return form;
    }

    it('every TSA down: pending with attempts and the reason, then failed; never signed, no form.signed; reseal once the TSA is back seals it, form.signed once', async () => {
      const as = h.actors.aTest;
      const f = await sendTo(h, as, await twoSignerTemplate(h, as.partition), ['tenant@example.com', 'landlord@example.com']);
      assert.equal((await getForm(f.formId)).sealing, null, 'no sealing before every recipient has signed');
      const early = await h.request({ method: 'POST', url: `/api/v1/forms/${f.formId}/reseal`, as });
      assert.equal(early.status, 409);
      assert.equal(errorOf(early).code, 'form_not_resealable');
      assert.equal((await sign(f.tokens[0]!, { tenant_name: 'Ada Lovelace', tenant_signature: { image: strokePng(), method: 'drawn' } })).statusCode, 200);
      assert.equal((await sign(f.tokens[1]!, { landlord_name: 'Charles Babbage', landlord_signature: { image: strokePng(), method: 'typed' } })).statusCode, 200);

      // A failed attempt is recorded beside its reschedule: still pending, with the reason and when next.
      const retrying = await until(f.formId, (x) => (x.sealing?.attempts ?? 0) >= 1 && x.sealing?.status === 'pending', 'a first failed attempt');
      assert.notEqual(retrying.status, 'signed');
      assert.match(retrying.sealing!.last_error ?? '', /No time-stamping authority gave a timestamp/);
      assert.match(retrying.sealing!.last_error ?? '', new RegExp(`${primary.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} answered HTTP 500`));
      assert.match(retrying.sealing!.last_error ?? '', /no answer within 3000 ms/);
      assert.ok(retrying.sealing!.next_attempt_at, 'the next attempt is scheduled');
      const pending = await h.request({ method: 'POST', url: `/api/v1/forms/${f.formId}/reseal`, as });
      assert.equal(pending.status, 409, 'a pending seal is still being retried');
      assert.match(errorOf(pending).message, /pending/);

      const failed = await until(f.formId, (x) => x.sealing?.status === 'failed', 'failed after the last attempt');
      assert.equal(failed.sealing!.attempts, ATTEMPTS);
      assert.equal(failed.sealing!.next_attempt_at, null);
      assert.match(failed.sealing!.last_error ?? '', /answered HTTP 500/);
      assert.notEqual(failed.status, 'signed');
      assert.equal(failed.completed_at, null);
      assert.ok(!(await eventTypes(f.formId)).includes('form.signed'), 'no form.signed without a seal');
      const noPdf = await h.request({ url: `/api/v1/forms/${f.formId}/signed-pdf?format=base64`, as });
      assert.equal(noPdf.status, 409);
      assert.equal(errorOf(noPdf).code, 'form_not_signed');
      assert.equal(primary.stamped + backup.stamped, 0, 'nothing was timestamped');
      const metrics = (await h.app.inject({ url: '/metrics' })).body;
      const count = (url: string) => Number(new RegExp(`formsign_tsa_failures_total\\{tsa="${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0);
      assert.equal(count(primary.url), ATTEMPTS, metrics);
      assert.equal(count(backup.url), ATTEMPTS);
      assert.match(metrics, new RegExp(`formsign_seal_timestamp_unavailable_total ${ATTEMPTS}`));

      // The TSA is back; the operator reseals.
      primary.setMode('ok');
      const resealed = await h.request({ method: 'POST', url: `/api/v1/forms/${f.formId}/reseal`, as });
      assert.equal(resealed.status, 200, resealed.body);
      assert.deepEqual(resealed.json<FormBody>().sealing, { status: 'pending', attempts: 0, last_error: null, next_attempt_at: null });
      const sealed = await until(f.formId, (x) => x.status === 'signed', 'signed after the reseal');
      assert.deepEqual(sealed.sealing, { status: 'sealed', attempts: 1, last_error: null, next_attempt_at: null });
      assert.ok(sealed.completed_at);
      assert.deepEqual((await eventTypes(f.formId)).filter((t) => t === 'form.signed'), ['form.signed']);
      // The seal's timestamp and the document timestamp: the primary answered both, the backup was not needed.
      assert.equal(primary.stamped, 2);

      const res = await h.request({ url: `/api/v1/forms/${f.formId}/signed-pdf?format=base64`, as });
      assert.equal(res.status, 200);
      const out = pdfsig(Buffer.from(res.json<{ data: string }>().data, 'base64'));
      assert.match(out, /Signature #1:[\s\S]*Signature is Valid\./, out);
      assert.match(out, /Signature #2:[\s\S]*DocumentTimestamp[\s\S]*Formsign Test TSA/, out);

      const again = await h.request({ method: 'POST', url: `/api/v1/forms/${f.formId}/reseal`, as });
      assert.equal(again.status, 409);
      assert.match(errorOf(again).message, /sealed/);
      // The form.signed event carries the sealed state.
      const events = (await h.request({ url: `/api/v1/forms/${f.formId}/events?limit=100`, as })).json<{ data: Array<{ type: string; data: { object: FormBody } }> }>().data;
      assert.equal(events.find((e) => e.type === 'form.signed')!.data.object.sealing?.status, 'sealed');
    });

    it('another partition cannot reseal the form; the CLI reseals by id alone and refuses what has not failed', async () => {
      const as = h.actors.aTest;
      const f = await sendTo(h, as, await twoSignerTemplate(h, as.partition), ['one@example.com']);
      const other = await h.request({ method: 'POST', url: `/api/v1/forms/${f.formId}/reseal`, as: h.actors.bTest });
      assert.equal(other.status, 404);
      assert.equal(errorOf(other).code, 'resource_not_found');
      await assert.rejects(SEAL_COMMANDS['forms reseal']!(h.deps, [f.formId], false), (err: unknown) => {
        assert.match(String((err as Error).message), /Only a form whose sealing failed can be resealed/);
        return true;
      });
      await assert.rejects(SEAL_COMMANDS['forms reseal']!(h.deps, ['form_000000000000000000000000'], false), /form_000000000000000000000000/);
    });
  });
}
