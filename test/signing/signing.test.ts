import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadSigningRecord } from '../../src/domain/signing/signing-record.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { SIGN_HEADERS, TINY_PNG, sendTo, twoSignerTemplate } from './support.js';

// The signing flow through its HTTP routes on both dialects: the first view recorded exactly once
// (also when opens race), values validated as prefill is, other signers' fields refused, the last
// signature enqueuing exactly one seal job, and expired links refused.

const NOW = new Date('2026-03-01T10:00:00.000Z');
const sig = (method = 'drawn') => ({ image: TINY_PNG, method });

for (const dialect of DIALECTS) {
  describe(`signing (${dialect})`, () => {
    let h: Harness;
    let templateId: string;
    let now = NOW;
    before(async () => {
      h = await createHarness(dialect, { clock: { now: () => now } });
      templateId = await twoSignerTemplate(h, h.actors.aTest.partition);
    });
    after(() => h.close());
    const db = () => h.deps.database.db;
    const open = (token: string, ua = 'TestBrowser/1.0') => h.app.inject({ method: 'GET', url: `/sign/${token}`, headers: { 'user-agent': ua } });
    const post = (token: string, body: unknown, headers: Record<string, string> = SIGN_HEADERS) =>
      h.app.inject({ method: 'POST', url: `/sign/${token}`, headers: { 'content-type': 'application/json', 'user-agent': 'TestBrowser/1.0', ...headers }, payload: JSON.stringify(body) });
    const events = async (formId: string, type: string) => (await db().selectFrom('events').select(['type', 'form']).where('form_id', '=', formId).where('type', '=', type).execute());
    const sealJobs = async (formId: string) => (await db().selectFrom('outbox').select('payload').where('kind', '=', 'form.seal').execute()).filter((j) => (JSON.parse(j.payload) as { form_id: string }).form_id === formId);

    it('the first open records the view once: recipient viewed with IP and user agent, form viewed, one form.viewed; concurrent opens too', async () => {
      const f = await sendTo(h, h.actors.aTest, templateId, ['tenant@example.com', 'landlord@example.com']);
      now = new Date(NOW.getTime() + 60_000);
      const pages = await Promise.all([open(f.tokens[0]!), open(f.tokens[0]!), open(f.tokens[0]!), open(f.tokens[0]!)]);
      for (const p of pages) {
        assert.equal(p.statusCode, 200);
        assert.match(p.headers['content-type'] as string, /text\/html/);
        assert.equal(p.headers['referrer-policy'], 'no-referrer');
        assert.equal(p.headers['x-frame-options'], 'DENY');
        assert.match(p.headers['content-security-policy'] as string, /default-src 'none'.*script-src 'self'.*frame-ancestors 'none'/);
        assert.doesNotMatch(p.headers['content-security-policy'] as string, /unsafe|\*/);
        assert.match(p.body, /Residential lease/);
        assert.match(p.body, /Tenant name/);
        assert.doesNotMatch(p.body, /id="field-\d+" data-field="landlord_name"/, "another signer's field is no control of this page");
      }
      const viewed = await events(f.formId, 'form.viewed');
      assert.equal(viewed.length, 1, 'exactly one form.viewed for four concurrent opens');
      const r = await db().selectFrom('recipients').selectAll().where('id', '=', f.recipientIds[0]!).executeTakeFirstOrThrow();
      assert.equal(r.status, 'viewed');
      assert.equal(r.viewed_at, now.toISOString());
      assert.equal(r.viewed_user_agent, 'TestBrowser/1.0');
      assert.equal(r.viewed_ip, '127.0.0.1');
      const form = await db().selectFrom('forms').select('status').where('id', '=', f.formId).executeTakeFirstOrThrow();
      assert.equal(form.status, 'viewed');
      const snapshot = JSON.parse(viewed[0]!.form) as { status: string; recipients: Array<{ id: string; status: string }> };
      assert.equal(snapshot.status, 'viewed');
      assert.equal(snapshot.recipients.find((x) => x.id === f.recipientIds[0])?.status, 'viewed');
      // The second recipient's first open is a view of its own; the form stays viewed.
      await open(f.tokens[1]!);
      await open(f.tokens[1]!);
      assert.equal((await events(f.formId, 'form.viewed')).length, 2);
    });

    it('values are validated as prefill is; other signers\u2019 fields, date_signed, unknown fields and bad images are refused; nothing is written', async () => {
      const f = await sendTo(h, h.actors.aTest, templateId, ['t2@example.com', 'l2@example.com']);
      await open(f.tokens[0]!);
      const cases: Array<[unknown, number, string, RegExp]> = [
        [{ values: { tenant_name: 'Ada', tenant_signature: sig(), landlord_name: 'Eve' }, consent: true }, 400, 'values.landlord_name', /another signer/],
        [{ values: { tenant_name: 'Ada', tenant_signature: sig(), tenant_date: '2020-01-01' }, consent: true }, 400, 'values.tenant_date', /date of signing/],
        [{ values: { tenant_name: 'Ada', tenant_signature: sig(), nope: 'x' }, consent: true }, 400, 'values.nope', /unknown field/],
        [{ values: { tenant_name: 42, tenant_signature: sig() }, consent: true }, 400, 'values.tenant_name', /must be a string/],
        [{ values: { tenant_signature: sig() }, consent: true }, 400, 'values.tenant_name', /Tenant name is required/],
        // The prefill limit holds on the signing page too, and the message speaks of the field by its label.
        [{ values: { tenant_name: 'x'.repeat(100_000), tenant_signature: sig() }, consent: true }, 400, 'values.tenant_name', /^Tenant name is longer than 10,000 characters\.$/],
        [{ values: { tenant_name: 'Ada' }, consent: true }, 400, 'values.tenant_signature', /Tenant signature is required/],
        [{ values: { tenant_name: 'Ada', tenant_signature: { image: 'data:image/png;base64,AAAA', method: 'drawn' } }, consent: true }, 400, 'values.tenant_signature', /not a PNG/],
        [{ values: { tenant_name: 'Ada', tenant_signature: { image: `data:image/png;base64,${'A'.repeat(400_000)}`, method: 'drawn' } }, consent: true }, 400, 'values.tenant_signature', /larger than/],
        [{ values: { tenant_name: 'Ada', tenant_signature: { image: TINY_PNG, method: 'pasted' } }, consent: true }, 400, 'values.tenant_signature', /drawn" or "typed/],
        [{ values: { tenant_name: 'Ada', tenant_signature: sig() } }, 400, 'consent', /agree to sign electronically/],
        [{ values: { tenant_name: 'Ada', tenant_signature: sig() }, consent: true, extra: 1 }, 400, 'extra', /unknown parameter/],
      ];
      for (const [body, status, param, message] of cases) {
        const res = await post(f.tokens[0]!, body);
        assert.equal(res.statusCode, status, res.body);
        assert.match(res.headers['content-type'] as string, /application\/json/);
        const err = (JSON.parse(res.body) as { error: { param?: string; message: string; request_id: string } }).error;
        assert.equal(err.param, param, res.body);
        assert.match(err.message, message);
        assert.match(err.request_id, /^req_/);
      }
      const r = await db().selectFrom('recipients').select('status').where('id', '=', f.recipientIds[0]!).executeTakeFirstOrThrow();
      assert.equal(r.status, 'viewed');
      assert.equal((await db().selectFrom('signatures').select('field_name').where('form_id', '=', f.formId).execute()).length, 0);
    });

    it('a submission without the page header, or from another origin, is refused (CSRF)', async () => {
      const f = await sendTo(h, h.actors.aTest, templateId, ['t3@example.com', 'l3@example.com']);
      const body = { values: { tenant_name: 'Ada', tenant_signature: sig() }, consent: true };
      const bare = await post(f.tokens[0]!, body, {});
      assert.equal(bare.statusCode, 400);
      assert.match(bare.body, /signing page/);
      const cross = await post(f.tokens[0]!, body, { ...SIGN_HEADERS, origin: 'https://evil.example' });
      assert.equal(cross.statusCode, 400);
      assert.match(cross.body, /another site/);
      const r = await db().selectFrom('recipients').select('status').where('id', '=', f.recipientIds[0]!).executeTakeFirstOrThrow();
      assert.notEqual(r.status, 'signed');
    });

    it('two signers: values merged, images stored, the last signature enqueues exactly one seal job; the form stays unsigned until sealed', async () => {
      const f = await sendTo(h, h.actors.aTest, templateId, ['t4@example.com', 'l4@example.com']);
      await open(f.tokens[0]!);
      now = new Date('2026-03-02T09:30:00.000Z');
      const first = await post(f.tokens[0]!, { values: { tenant_name: 'Ada Lovelace', tenant_signature: sig('drawn'), tenant_initials: sig('typed') }, consent: true });
      assert.equal(first.statusCode, 200, first.body);
      assert.deepEqual(JSON.parse(first.body), { status: 'signed', complete: false, next: `/sign/${f.tokens[0]}` });
      assert.equal((await sealJobs(f.formId)).length, 0, 'no seal while a recipient has not signed');
      const again = await post(f.tokens[0]!, { values: { tenant_name: 'Ada', tenant_signature: sig() }, consent: true });
      assert.equal(again.statusCode, 409);
      assert.match(again.body, /already signed/);
      // The signed link now shows a read-only confirmation.
      const confirmation = await open(f.tokens[0]!);
      assert.equal(confirmation.statusCode, 200);
      assert.match(confirmation.body, /You signed/);
      assert.match(confirmation.body, /Waiting for one other signer/);
      assert.doesNotMatch(confirmation.body, /Finish and sign/);

      // The second signer arrives without a page view first: the view is recorded with the signature.
      now = new Date('2026-03-02T10:00:00.000Z');
      const [a, b] = await Promise.all([
        post(f.tokens[1]!, { values: { landlord_name: 'Charles Babbage', landlord_signature: sig() }, consent: true }),
        post(f.tokens[1]!, { values: { landlord_name: 'Charles Babbage', landlord_signature: sig() }, consent: true }),
      ]);
      assert.deepEqual([a.statusCode, b.statusCode].sort(), [200, 409], `${a.body} ${b.body}`);
      assert.equal((await sealJobs(f.formId)).length, 1, 'exactly one seal job');
      assert.equal((await events(f.formId, 'form.viewed')).length, 2);
      assert.equal((await events(f.formId, 'form.signed')).length, 0);

      const form = await db().selectFrom('forms').selectAll().where('id', '=', f.formId).executeTakeFirstOrThrow();
      assert.equal(form.status, 'viewed', 'only the seal job makes a form signed');
      const values = JSON.parse(form.values) as Record<string, unknown>;
      assert.equal(values['tenant_name'], 'Ada Lovelace');
      assert.equal(values['landlord_name'], 'Charles Babbage');
      assert.equal(values['tenant_date'], '2026-03-02');
      assert.equal(values['landlord_date'], '2026-03-02');
      assert.match(String(values['tenant_signature']), /^sha256:[0-9a-f]{64}$/);
      const recipients = await db().selectFrom('recipients').selectAll().where('form_id', '=', f.formId).orderBy('position').execute();
      assert.deepEqual(recipients.map((r) => [r.status, r.signed_at, r.signed_user_agent, r.signed_ip]), [
        ['signed', '2026-03-02T09:30:00.000Z', 'TestBrowser/1.0', '127.0.0.1'],
        ['signed', '2026-03-02T10:00:00.000Z', 'TestBrowser/1.0', '127.0.0.1'],
      ]);

      // What the seal job reads: every image with its field, the bytes as submitted.
      const record = await loadSigningRecord(h.deps.domain, h.actors.aTest.partition, f.formId, form.values);
      assert.deepEqual(record.images.map((i) => [i.fieldName, i.kind, i.method, i.recipientId, i.width, i.height]).sort(), [
        ['landlord_signature', 'signature', 'drawn', f.recipientIds[1], 2, 1],
        ['tenant_initials', 'initials', 'typed', f.recipientIds[0], 2, 1],
        ['tenant_signature', 'signature', 'drawn', f.recipientIds[0], 2, 1],
      ]);
      assert.deepEqual(Buffer.from(record.images[0]!.png), Buffer.from(TINY_PNG.split(',')[1]!, 'base64'));
      assert.equal(record.values['tenant_name'], 'Ada Lovelace');
    });

    it('an expired link shows the expired page and refuses a signature; an unknown token is the 404 page', async () => {
      now = NOW;
      const f = await sendTo(h, h.actors.aTest, templateId, ['t5@example.com', 'l5@example.com']);
      now = new Date(NOW.getTime() + 400 * 86_400_000);
      const page = await open(f.tokens[0]!);
      assert.equal(page.statusCode, 410);
      assert.match(page.body, /This signing link has expired/);
      const res = await post(f.tokens[0]!, { values: { tenant_name: 'Ada', tenant_signature: sig() }, consent: true });
      assert.equal(res.statusCode, 409);
      assert.equal((JSON.parse(res.body) as { error: { code: string } }).error.code, 'form_expired');
      assert.equal((await events(f.formId, 'form.viewed')).length, 0, 'an expired link records no view');
      const unknown = await open('A'.repeat(43));
      assert.equal(unknown.statusCode, 404);
      assert.match(unknown.headers['content-type'] as string, /text\/html/);
      assert.match(unknown.body, /not valid/);
      const doc = await h.app.inject({ method: 'GET', url: `/sign/${'B'.repeat(43)}/document.pdf` });
      assert.equal(doc.statusCode, 404);
      now = NOW;
    });

    it('a HEAD (a mail scanner probing the link) records no view; a sealed form offers the signed copy', async () => {
      const f = await sendTo(h, h.actors.aTest, templateId, ['t7@example.com', 'l7@example.com']);
      const head = await h.app.inject({ method: 'HEAD', url: `/sign/${f.tokens[0]}` });
      assert.equal(head.statusCode, 200);
      assert.equal((await events(f.formId, 'form.viewed')).length, 0);
      for (const [i, name] of [[0, 'tenant'], [1, 'landlord']] as const) {
        const res = await post(f.tokens[i]!, { values: { [`${name}_name`]: 'Someone', [`${name}_signature`]: sig() }, consent: true });
        assert.equal(res.statusCode, 200, res.body);
      }
      const sealing = await open(f.tokens[0]!);
      assert.match(sealing.body, /being sealed/);
      assert.match(sealing.body, /<script type="module" src="\/assets\/sign\/sign-wait\.[0-9a-f]{12}\.js">/);
      assert.doesNotMatch(sealing.body, /signed\.pdf/);
      // What the seal job does at its end; the page then links the signed copy.
      await h.deps.database.db.updateTable('forms').set({ status: 'signed' }).where('id', '=', f.formId).execute();
      const sealed = await open(f.tokens[1]!);
      assert.match(sealed.body, new RegExp(`href="/sign/${f.tokens[1]}/signed\\.pdf"`));
      assert.match(sealed.body, /Download the signed PDF/);
    });

    it('a recipient beyond the template’s signers (no field of their own) signs with a signature of their own for the added page', async () => {
      const f = await sendTo(h, h.actors.aTest, templateId, ['t8@example.com', 'l8@example.com', 'witness@example.com']);
      const page = await open(f.tokens[2]!);
      assert.match(page.body, /Your signature/);
      assert.match(page.body, /data-field="_signature"/);
      const missing = await post(f.tokens[2]!, { values: {}, consent: true });
      assert.equal(missing.statusCode, 400);
      assert.equal((JSON.parse(missing.body) as { error: { param: string } }).error.param, 'values._signature');
      const ok = await post(f.tokens[2]!, { values: { _signature: sig('typed') }, consent: true });
      assert.equal(ok.statusCode, 200, ok.body);
      const form = await db().selectFrom('forms').select('values').where('id', '=', f.formId).executeTakeFirstOrThrow();
      const record = await loadSigningRecord(h.deps.domain, h.actors.aTest.partition, f.formId, form.values);
      assert.deepEqual(record.images.map((i) => [i.fieldName, i.recipientId, i.method]), [[null, f.recipientIds[2], 'typed']]);
      assert.ok(!('_signature' in (JSON.parse(form.values) as object)), 'the added-page signature is no field value');
    });

    it('the document route serves the filled PDF to the link only', async () => {
      const f = await sendTo(h, h.actors.aTest, templateId, ['t6@example.com', 'l6@example.com'], { tenant_name: 'Prefilled Name' });
      const res = await h.app.inject({ method: 'GET', url: `/sign/${f.tokens[0]}/document.pdf` });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/pdf');
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
      assert.match(res.rawPayload.subarray(0, 5).toString('latin1'), /^%PDF-/);
      const page = await open(f.tokens[0]!);
      assert.match(page.body, /value="Prefilled Name"/);
    });
  });
}
