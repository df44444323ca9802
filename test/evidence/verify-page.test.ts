import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Verification } from '../../src/pdf/index.js';
import { VERIFICATIONS_PER_WINDOW } from '../../src/http/pages/verify/address-window.js';
import { createHarness, type Harness } from '../harness.js';
import { flipSignedByte, sealedWithServiceCertificate } from './support.js';

// The public /verify page over HTTP: the page (own-origin script, a policy that allows nothing else),
// and POST /verify answering the same Verification as the API without a key, limited per address.

describe('/verify page (HTTP)', () => {
  let h: Harness;
  let sealed: Buffer;
  before(async () => {
    h = await createHarness('sqlite');
    sealed = await sealedWithServiceCertificate(h);
  });
  after(() => h.close());

  const post = (pdf: Buffer | string, ip: string, headers: Record<string, string> = { 'x-formsign-verify': '1', 'content-type': 'application/pdf' }) =>
    h.app.inject({ method: 'POST', url: '/verify', headers, payload: pdf, remoteAddress: ip });

  it('GET /verify: a page with a drop zone, its script from this origin, a policy allowing nothing else', async () => {
    const res = await h.app.inject({ url: '/verify' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /text\/html/);
    assert.match(res.body, /<h1>Verify a signed PDF<\/h1>/);
    assert.match(res.body, /<input type="file" id="file"/);
    assert.match(res.body, /<script type="module" src="\/assets\/verify\/verify\.[0-9a-f]{12}\.js">/);
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /connect-src 'self'/);
    assert.doesNotMatch(csp, /https?:/);
    const script = /src="(\/assets\/verify\/verify\.[0-9a-f]{12}\.js)"/.exec(res.body)![1]!;
    const js = await h.app.inject({ url: script });
    assert.equal(js.statusCode, 200);
    assert.match(js.body, /fetch\(['"]\/verify['"]/);
  });

  it('POST /verify: our seal → issued by this service; one byte flipped → not intact; no key needed', async () => {
    const ours = await post(sealed, '203.0.113.1');
    assert.equal(ours.statusCode, 200, ours.body);
    const v = ours.json<Verification>();
    assert.equal(v.object, 'verification');
    assert.equal(v.issued_by_this_service, true);
    assert.equal(v.form_id, 'form_VerifyPageTest0000000001');
    assert.equal(v.intact, true);
    const flipped = (await post(flipSignedByte(sealed), '203.0.113.1')).json<Verification>();
    assert.equal(flipped.intact, false);
    assert.equal(flipped.signatures[0]!.valid, false);
  });

  it('garbage → 400 pdf_invalid as JSON; without the page header → 400; another media type → 415', async () => {
    const garbage = await post('not a pdf', '203.0.113.2');
    assert.equal(garbage.statusCode, 400);
    assert.equal(garbage.json<{ error: { code: string } }>().error.code, 'pdf_invalid');
    const bare = await post(sealed, '203.0.113.2', { 'content-type': 'application/pdf' });
    assert.equal(bare.statusCode, 400);
    assert.match(bare.json<{ error: { message: string } }>().error.message, /page header/);
    const json = await post('{}', '203.0.113.2', { 'x-formsign-verify': '1', 'content-type': 'application/json' });
    assert.equal(json.statusCode, 415);
  });

  it(`an address gets ${VERIFICATIONS_PER_WINDOW} verifications per window, then 429 with Retry-After; another address is not affected`, async () => {
    const tiny = Buffer.from('%PDF-1.7\n');
    for (let i = 0; i < VERIFICATIONS_PER_WINDOW; i++) {
      const res = await post(tiny, '198.51.100.7');
      assert.notEqual(res.statusCode, 429, `request ${i + 1}`);
    }
    const refused = await post(tiny, '198.51.100.7');
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json<{ error: { code: string } }>().error.code, 'rate_limited');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    const other = await post(sealed, '198.51.100.8');
    assert.equal(other.statusCode, 200);
  });
});
