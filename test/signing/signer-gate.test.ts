import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { guardSigningRoutes, signingRoutesOf } from '../../src/http/pages/sign/signer-gate.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { SIGN_HEADERS, TINY_PNG, sampleTemplate } from './support.js';

// The signer gate (issue 38): every signing-link route of the running app is registered through it
// (none can be added past it), and a link whose recipient must pass a check answers nothing of the
// document (page, PDF, signature, decline, signed copy) before the check — the same on both dialects.

/** Every route a signing link has today; a new one must be added here, gated. */
const EXPECTED = [
  'GET /sign/:token', 'HEAD /sign/:token', 'POST /sign/:token',
  'GET /sign/:token/document.pdf', 'HEAD /sign/:token/document.pdf',
  // Issue 43 item 4: the first page as a picture, shown until pdf.js has drawn it (the document, as an image).
  'GET /sign/:token/first-page.webp', 'HEAD /sign/:token/first-page.webp',
  'GET /sign/:token/signed.pdf', 'HEAD /sign/:token/signed.pdf',
  'POST /sign/:token/decline', 'POST /sign/:token/auth/start', 'POST /sign/:token/auth/verify',
  'PUT /sign/:token/draft',
  'GET /sign/:token/reassign', 'HEAD /sign/:token/reassign', 'POST /sign/:token/reassign',
  'POST /sign/:token/attachments', 'DELETE /sign/:token/attachments/:attachment_id',
  'POST /sign/:token/approve',
  // Issue 43 item 7: the typed name's styles as outlines (adopting a signature).
  'POST /sign/:token/signature-styles',
];

describe('signer gate: the routes', () => {
  it('a signing-link route registered without the gate stops the start', async () => {
    const app = Fastify();
    guardSigningRoutes(app);
    app.get('/sign/other', async () => 'not a link route');
    assert.throws(() => app.get('/sign/:token/sneaky', async () => 'x'), /registered without the signer gate/);
    assert.deepEqual(signingRoutesOf(app).map((r) => `${r.method} ${r.url} ${r.purpose}`), ['GET /sign/:token/sneaky undefined']);
    await app.close();
  });
});

for (const dialect of DIALECTS) {
  describe(`signer gate (${dialect})`, () => {
    let h: Harness;
    let templateId: string;
    before(async () => {
      h = await createHarness(dialect);
      templateId = await sampleTemplate(h, h.actors.aTest.partition);
    });
    after(() => h.close());

    async function send(recipient: Record<string, unknown>): Promise<{ formId: string; token: string }> {
      const created = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId } });
      assert.equal(created.status, 201, created.body);
      const formId = created.json<{ id: string }>().id;
      const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as: h.actors.aTest, json: { recipients: [recipient] } });
      assert.equal(sent.status, 200, sent.body);
      const url = sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients[0]!.signing_url;
      return { formId, token: /\/sign\/([A-Za-z0-9_-]{43})$/.exec(url)![1]! };
    }

    it('every signing-link route of the app passes the gate, and each route there is is known', () => {
      const routes = signingRoutesOf(h.app);
      const bypass = routes.filter((r) => r.purpose === undefined);
      assert.deepEqual(bypass, [], 'no signing route bypasses the gate');
      assert.deepEqual(routes.map((r) => `${r.method} ${r.url}`).sort(), [...EXPECTED].sort());
      assert.deepEqual(Object.fromEntries(routes.filter((r) => r.method !== 'HEAD').map((r) => [`${r.method} ${r.url}`, r.purpose])), {
        'GET /sign/:token': 'view', 'POST /sign/:token': 'sign', 'GET /sign/:token/document.pdf': 'document', 'GET /sign/:token/signed.pdf': 'signed_pdf',
        'GET /sign/:token/first-page.webp': 'document',
        'POST /sign/:token/decline': 'decline', 'POST /sign/:token/auth/start': 'check', 'POST /sign/:token/auth/verify': 'check',
        'PUT /sign/:token/draft': 'draft', 'GET /sign/:token/reassign': 'reassign', 'POST /sign/:token/reassign': 'reassign',
        'POST /sign/:token/attachments': 'attachment', 'DELETE /sign/:token/attachments/:attachment_id': 'attachment',
        // Issue 42: an approver's approval is their signature's place in the order.
        'POST /sign/:token/approve': 'sign',
        // Issue 43 item 7: a typed signature's styles serve only signing, so they pass as signing does.
        'POST /sign/:token/signature-styles': 'sign',
      });
    });

    it('a link without a check opens as before, and its check routes say there is none', async () => {
      const { token } = await send({ channel: 'email', email: 'plain@example.com' });
      const page = await h.app.inject({ url: `/sign/${token}` });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /id="signing"/);
      assert.doesNotMatch(page.body, /id="check"/);
      assert.equal(page.headers['set-cookie'], undefined, 'no session is made when there is nothing to remember');
      const pdf = await h.app.inject({ url: `/sign/${token}/document.pdf` });
      assert.equal(pdf.statusCode, 200);
      assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-');
      const start = await h.app.inject({ method: 'POST', url: `/sign/${token}/auth/start`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: '{}' });
      assert.equal(start.statusCode, 400);
      assert.equal(start.json().error.message, 'This signing link asks for no code.');
    });

    it('before the check: the page is the code screen and the document, signature, decline and signed copy are refused with 401 auth_required', async () => {
      const { formId, token } = await send({ channel: 'email', email: 'guarded@example.com', name: 'Guarded Signer', auth: { method: 'access_code', access_code: 'blue-harbour-42' } });
      const page = await h.app.inject({ url: `/sign/${token}` });
      assert.equal(page.statusCode, 401);
      assert.match(page.body, /id="check"/);
      assert.match(page.body, /enter the access code the sender gave you/);
      assert.doesNotMatch(page.body, /document\.pdf|id="signing"/, 'nothing of the document on the code screen');
      const json = { ...SIGN_HEADERS, 'content-type': 'application/json' };
      const tries = [
        await h.app.inject({ method: 'POST', url: `/sign/${token}`, headers: json, payload: JSON.stringify({ values: { signature: { image: TINY_PNG, method: 'drawn' } }, consent: true }) }),
        await h.app.inject({ method: 'POST', url: `/sign/${token}/decline`, headers: json, payload: '{}' }),
        await h.app.inject({ method: 'POST', url: `/sign/${token}/signature-styles`, headers: json, payload: JSON.stringify({ text: 'Guarded Signer' }) }),
      ];
      // The files are pages' addresses: their refusal is an error page, with the same status.
      for (const file of ['document.pdf', 'signed.pdf', 'first-page.webp']) {
        const res = await h.app.inject({ url: `/sign/${token}/${file}` });
        assert.equal(res.statusCode, 401);
        assert.match(res.body, /Confirm who you are first/);
        assert.doesNotMatch(res.body, /%PDF|RIFF/);
      }
      for (const res of tries) {
        assert.equal(res.statusCode, 401, res.body);
        assert.equal(res.json().error.code, 'auth_required');
      }
      // Nothing happened to the form: not viewed, not signed, not declined.
      const form = await h.request({ url: `/api/v1/forms/${formId}`, as: h.actors.aTest });
      assert.equal(form.json<{ status: string }>().status, 'sent');
      assert.equal(form.json<{ recipients: Array<{ viewed_at?: string }> }>().recipients[0]!.viewed_at ?? null, null);
      // A made-up cookie is no session.
      const forged = await h.app.inject({ url: `/sign/${token}/document.pdf`, headers: { cookie: `formsign_signer=${'A'.repeat(43)}` } });
      assert.equal(forged.statusCode, 401);
    });

    it('the right access code opens the link in this browser only; the cookie is HttpOnly, SameSite=Strict, scoped to the link', async () => {
      const { token } = await send({ channel: 'email', email: 'bound@example.com', auth: { method: 'access_code', access_code: 'blue-harbour-42' } });
      const verify = await h.app.inject({ method: 'POST', url: `/sign/${token}/auth/verify`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: JSON.stringify({ code: 'blue-harbour-42' }) });
      assert.equal(verify.statusCode, 200, verify.body);
      const setCookie = String(verify.headers['set-cookie']);
      assert.match(setCookie, new RegExp(`^formsign_signer=[A-Za-z0-9_-]{43}; Path=/sign/${token}; HttpOnly; SameSite=Strict$`));
      const cookie = setCookie.split(';')[0]!;
      const page = await h.app.inject({ url: `/sign/${token}`, headers: { cookie } });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /id="signing"/);
      assert.equal((await h.app.inject({ url: `/sign/${token}/document.pdf`, headers: { cookie } })).statusCode, 200);
      // Another browser (no cookie) must pass the check itself.
      assert.equal((await h.app.inject({ url: `/sign/${token}/document.pdf` })).statusCode, 401);
      // The cookie of one link is no session on another recipient's link.
      const other = await send({ channel: 'email', email: 'other@example.com', auth: { method: 'access_code', access_code: 'blue-harbour-42' } });
      assert.equal((await h.app.inject({ url: `/sign/${other.token}/document.pdf`, headers: { cookie } })).statusCode, 401);
    });
  });
}
