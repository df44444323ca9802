import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { html, toHtmlString } from '../../src/http/pages/html.js';
import { listOperations, loadOpenApiDocument, servedDocument } from '../../src/http/openapi.js';
import { REQUEST_ID } from '../contract-check.js';
import { createHarness, errorOf, type Harness, type TestResponse } from '../harness.js';

// Pages beside the API: their own routes (not from openapi.yaml), the same request id, HTML errors,
// security headers (checked on every page response by contract-check.ts), long-cached assets.

describe('pages beside the API', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness('sqlite');
  });
  after(() => h.close());

  const page = async (url: string, headers: Record<string, string> = {}): Promise<TestResponse> => {
    const res = await h.request({ url, headers });
    assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/, url);
    assert.match(String(res.headers['service-request-id']), REQUEST_ID, url);
    assert.equal(res.headers['cache-control'], 'no-store', url);
    return res;
  };

  it('/ says what Formsign is, links to /docs, the dashboard and /healthz, and lists the served operations', async () => {
    const res = await page('/');
    assert.equal(res.status, 200);
    for (const href of ['/docs', '/dashboard', '/healthz']) assert.ok(res.body.includes(`href="${href}"`), href);
    assert.match(res.body, /<h1>Formsign<\/h1>/);
    // Each path has a <wbr> after its slashes (where a phone may wrap it); the text is the path.
    assert.match(res.body, /GET<\/span>\/<wbr>api\/<wbr>v1\/<wbr>templates</);
    const text = res.body.replaceAll('<wbr>', '');
    const served = listOperations(servedDocument(loadOpenApiDocument())).filter((o) => o.path.startsWith('/api/'));
    for (const o of served) assert.ok(text.includes(`${o.method}</span>${o.path}<`), `${o.method} ${o.path} listed`);
    const planned = listOperations(loadOpenApiDocument()).filter((o) => o.planned);
    for (const o of planned) assert.ok(!text.includes(`${o.method}</span>${o.path}<`), `${o.method} ${o.path} is planned and not listed`);
  });

  it('/ says what works today and what is coming, from the served document', async () => {
    const res = await page('/');
    const lead = /<p class="lead">([^<]*)<\/p>/.exec(res.body)?.[1] ?? '';
    const served = new Set(listOperations(loadOpenApiDocument()).filter((o) => !o.planned).map((o) => o.operation.operationId));
    assert.equal(lead.includes('upload a PDF form as a template'), served.has('createTemplate'));
    assert.equal(/Coming soon:[^.]*send it to be signed/.test(lead), !served.has('sendForm'), lead);
    assert.equal(/Coming soon:[^.]*generate a form/.test(lead), !served.has('generateForm'), lead);
  });

  it('/ escapes what it echoes (the Host header in the example curl)', async () => {
    const res = await page('/', { host: 'x"><script>alert(1)</script>' });
    assert.equal(res.status, 200);
    assert.ok(!res.body.includes('<script>alert(1)'), 'no markup from the request');
    assert.ok(res.body.includes('&lt;script&gt;alert(1)'), 'shown as text');
  });

  it('the html tag escapes every interpolated string and keeps nested html as markup', () => {
    const inner = html`<b>${'a & b'}</b>`;
    const out = toHtmlString(html`<p title="${'"quoted" <x>'}">${inner}${[html`<i>1</i>`, html`<i>2</i>`]}${undefined}${false}${3}</p>`);
    assert.equal(out, '<p title="&quot;quoted&quot; &lt;x&gt;"><b>a &amp; b</b><i>1</i><i>2</i>3</p>');
  });

  it('/docs is public, loads Redoc and its start module from this server, and its CSP allows nothing else', async () => {
    const res = await page('/docs');
    assert.equal(res.status, 200);
    const csp = String(res.headers['content-security-policy']);
    assert.equal(csp, "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src data:; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'");
    const start = /<script type="module" src="(\/docs\/start\.[0-9a-f]{12}\.js)"><\/script>/.exec(res.body)?.[1];
    assert.ok(start, 'the start module is referenced by its hashed name');
    const startJs = await h.request({ url: start });
    assert.equal(startJs.status, 200);
    assert.match(String(startJs.headers['content-type']), /^text\/javascript/);
    assert.equal(startJs.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.match(startJs.body, /disableTelemetry":true/);
    const bundleUrl = /from "(\/docs\/redoc\.[0-9a-f]{12}\.js)"/.exec(startJs.body)?.[1];
    assert.ok(bundleUrl, 'the start module imports the bundle by its hashed name');
    assert.match(startJs.body, /init\('\/docs\/openapi\.json'/);

    const bundle = await h.request({ url: bundleUrl });
    assert.equal(bundle.status, 200);
    assert.ok(bundle.rawPayload.length > 1_000_000, 'the whole standalone bundle');
    assert.ok(!bundle.body.includes('cdn.redoc.ly'), 'the attribution logo is served from here');
    assert.equal(bundle.headers['x-content-type-options'], 'nosniff');
    const gz = await h.request({ url: bundleUrl, headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.ok(gz.rawPayload.length < bundle.rawPayload.length / 2);
    assert.ok(zlib.gunzipSync(gz.rawPayload).equals(bundle.rawPayload), 'the gzip copy is the same file');
  });

  it('/docs/openapi.json is the served document (planned operations left out), without a key', async () => {
    const res = await h.request({ url: '/docs/openapi.json' });
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.deepEqual(res.json(), JSON.parse(JSON.stringify(servedDocument(loadOpenApiDocument(), h.deps.config.baseUrl))));
  });

  it('/sign/<anything> answers the HTML 404 page with the request id; so do unknown assets', async () => {
    for (const url of ['/sign/abc', '/sign/tok_123/extra', '/sign', '/assets/formsign.000000000000.css', '/docs/nope']) {
      const res = await page(url);
      assert.equal(res.status, 404, url);
      assert.match(res.body, /<p class="status">404<\/p>/, url);
      assert.ok(res.body.includes(String(res.headers['service-request-id'])), `${url}: the page shows its request id`);
      assert.ok(!res.body.includes('"error"'), `${url}: not JSON`);
    }
    assert.match((await page('/sign/abc')).body, /signing link is not valid/);
  });

  it('a malformed address under a page answers an HTML page too', async () => {
    const res = await page('/sign/%E0%A4%A');
    assert.ok([400, 404].includes(res.status), String(res.status));
    assert.match(res.body, /class="status"/);
  });

  it('the stylesheet and icon are served by content hash with a year-long cache', async () => {
    const home = await page('/');
    const css = /<link rel="stylesheet" href="(\/assets\/formsign\.[0-9a-f]{12}\.css)">/.exec(home.body)?.[1];
    const icon = /<link rel="icon" href="(\/assets\/favicon\.[0-9a-f]{12}\.svg)"/.exec(home.body)?.[1];
    assert.ok(css && icon);
    const sheet = await h.request({ url: css });
    assert.equal(sheet.status, 200);
    assert.equal(sheet.headers['content-type'], 'text/css; charset=utf-8');
    assert.equal(sheet.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.match(sheet.body, /--accent:/);
    assert.match(String(sheet.headers['service-request-id']), REQUEST_ID);
    const svg = await h.request({ url: icon });
    assert.equal(svg.headers['content-type'], 'image/svg+xml');
  });

  it('unknown addresses: a browser gets the HTML 404 page, curl and the API get the JSON error', async () => {
    const browser = await page('/no-such-page', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    assert.equal(browser.status, 404);
    const curl = await h.request({ url: '/no-such-page', headers: { accept: '*/*' } });
    assert.equal(curl.status, 404);
    assert.equal(errorOf(curl).code, 'route_not_found');
    const api = await h.request({ url: '/api/v1/no-such-thing', headers: { accept: 'text/html,*/*' } });
    assert.equal(errorOf(api).code, 'route_not_found');
    const probe = await h.request({ method: 'POST', url: '/healthz', headers: { accept: 'text/html' } });
    assert.equal(errorOf(probe).code, 'method_not_allowed');
  });

  it('HEAD of a page answers its headers without a body', async () => {
    const res = await h.app.inject({ method: 'HEAD', url: '/' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, '');
    assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
  });
});
