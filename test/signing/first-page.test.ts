import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { MEASURE_WAIT_MS } from '../../src/domain/forms/document-pages.js';
import { firstPageImage } from '../../src/domain/forms/first-page-image.js';
import { formRenderVersion, pageImageKeyOf } from '../../src/domain/forms/render-form-pdf.js';
import { f1040Template } from './f1040-form.js';
import { sampleTemplate, sendTo } from './support.js';

// A fast first page (issue 43 item 4), the server's part: each stored document's page sizes are kept
// (migration 0105, measured in the PDF pool at import, or the first time a page needs them) and the
// signing page lays out its boxes from them in its HTML; the first page comes as a WebP picture of the
// filled document, cached by the document's version. On both dialects.

/** The `data-config` JSON of the signing page's HTML. */
function configOf(body: string): { pages: Array<[number, number]> | null; first_page: string | null } {
  const raw = /id="signing" data-config="([^"]*)"/.exec(body)?.[1];
  assert.ok(raw, 'the page has its config');
  return JSON.parse(raw.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')) as never;
}

for (const dialect of DIALECTS) {
  describe(`the first page before the PDF (${dialect})`, () => {
    let h: Harness;
    let f1040: string;
    before(async () => {
      h = await createHarness(dialect);
      f1040 = await f1040Template(h);
    });
    after(() => h.close());

    const rowsOf = (pdfKey: string) => h.deps.domain.db.selectFrom('document_pages').selectAll().where('pdf_key', '=', pdfKey).execute();

    it('an upload keeps its page sizes; the page lays out a box per page at that size, the picture in the first', async () => {
      const template = await h.deps.domain.db.selectFrom('templates').select('pdf_key').where('id', '=', f1040).executeTakeFirstOrThrow();
      const rows = await rowsOf(template.pdf_key);
      assert.equal(rows.length, 1, 'measured at import');
      // The 1040 (2019): two US Letter pages.
      assert.deepEqual(JSON.parse(rows[0]!.page_sizes), [[612, 792], [612, 792]]);
      assert.equal(rows[0]!.account_id, h.actors.aTest.partition.accountId);

      const { tokens } = await sendTo(h, h.actors.aTest, f1040, ['first@example.com']);
      const page = await h.app.inject({ url: `/sign/${tokens[0]}`, headers: { 'accept-encoding': 'gzip' } });
      assert.equal(page.statusCode, 200);
      // 100+ KB of HTML (the 143 fields' config) goes gzipped.
      assert.equal(page.headers['content-encoding'], 'gzip');
      assert.match(String(page.headers['vary']), /Accept-Language, Accept-Encoding/);
      // gzip;q=0 is "never gzip" (RFC 9110), not a mention of gzip.
      const refused = await h.app.inject({ url: `/sign/${tokens[0]}`, headers: { 'accept-encoding': 'br, gzip;q=0' } });
      assert.equal(refused.headers['content-encoding'], undefined);
      assert.match(refused.body, /id="signing"/);
      const plain = await h.app.inject({ url: `/sign/${tokens[0]}` });
      assert.equal(plain.headers['content-encoding'], undefined);
      const config = configOf(plain.body);
      assert.deepEqual(config.pages, [[612, 792], [612, 792]]);
      assert.equal(config.first_page, `/sign/${tokens[0]}/first-page.webp`);
      const boxes = [...plain.body.matchAll(/<div class="page pending" data-page="(\d)"><svg class="page-frame" viewBox="0 0 ([\d.]+) ([\d.]+)"/g)].map((m) => m.slice(1).map(Number));
      assert.deepEqual(boxes, [[1, 612, 792], [2, 612, 792]]);
      assert.match(plain.body, new RegExp(`<img class="page-image" src="/sign/${tokens[0]}/first-page.webp" width="612" height="792" alt="Page 1 of 2"`));
      // pdf.js is not preloaded beside the picture: it loads once the first page is usable.
      assert.doesNotMatch(plain.body, /rel="modulepreload" href="\/assets\/sign\/pdf\.min/);
    });

    it('the first page picture is a WebP of the filled page, cached by version, 304 when held', async () => {
      const { tokens } = await sendTo(h, h.actors.aTest, f1040, ['pic@example.com']);
      const res = await h.app.inject({ url: `/sign/${tokens[0]}/first-page.webp` });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'image/webp');
      assert.equal(res.rawPayload.subarray(0, 4).toString('latin1'), 'RIFF');
      assert.equal(res.rawPayload.subarray(8, 12).toString('latin1'), 'WEBP');
      // The extended header (VP8X) gives the canvas size, 612 × 792 pt at 1.75 px/pt.
      assert.equal(res.rawPayload.subarray(12, 16).toString('latin1'), 'VP8X');
      assert.equal(res.rawPayload.readUIntLE(24, 3) + 1, 1071);
      assert.equal(res.rawPayload.readUIntLE(27, 3) + 1, 1386);
      assert.ok(res.rawPayload.length < 150_000, `${res.rawPayload.length} bytes`);
      assert.equal(res.headers['cache-control'], 'no-store');
      const etag = String(res.headers['etag']);
      assert.match(etag, /^"[0-9a-f]{32}-p1"$/);
      const again = await h.app.inject({ url: `/sign/${tokens[0]}/first-page.webp`, headers: { 'if-none-match': etag } });
      assert.equal(again.statusCode, 304);
      // Another form with the same template and values shares the cached picture (same version).
      const other = await sendTo(h, h.actors.aTest, f1040, ['pic2@example.com']);
      const shared = await h.app.inject({ url: `/sign/${other.tokens[0]}/first-page.webp` });
      assert.equal(shared.headers['etag'], etag);
      assert.deepEqual(shared.rawPayload, res.rawPayload);
      // A bad token is the signing routes' 404, not a picture.
      const bad = await h.app.inject({ url: `/sign/${'A'.repeat(43)}/first-page.webp` });
      assert.equal(bad.statusCode, 404);
      assert.notEqual(bad.headers['content-type'], 'image/webp');
    });

    it('a form changed while its picture is drawn: the picture is keyed by the version drawn, never by the blank one it shares', async () => {
      const templateId = await sampleTemplate(h, h.actors.aTest.partition);
      const p = h.actors.aTest.partition;
      const blank = await sendTo(h, h.actors.aTest, templateId, ['race1@example.com']);
      const other = await sendTo(h, h.actors.aTest, templateId, ['race2@example.com']);
      const asked = await formRenderVersion(h.deps.domain, p, blank.formId);
      assert.equal((await formRenderVersion(h.deps.domain, p, other.formId)).version, asked.version, 'both blank: one shared key');
      const cache = h.deps.domain.renderCache;
      let submitted = false;
      // The first cache read happens after the version was read: a signer "submits" right then.
      const racing = new Proxy(cache, {
        get(target, prop) {
          if (prop === 'get') {
            return async (key: string) => {
              if (!submitted) {
                submitted = true;
                await h.deps.domain.db.updateTable('forms').set({ values: JSON.stringify({ full_name: 'Secret Signer' }) }).where('id', '=', blank.formId).execute();
              }
              return target.get(key);
            };
          }
          const value: unknown = Reflect.get(target, prop, target);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
      const drawn = await firstPageImage({ ...h.deps.domain, renderCache: racing }, p, blank.formId);
      assert.ok(submitted);
      const now = await formRenderVersion(h.deps.domain, p, blank.formId);
      assert.notEqual(now.version, asked.version);
      assert.equal(drawn.etag, `"${now.version}-p1"`, 'tagged with the version drawn');
      assert.ok(!(await cache.get(pageImageKeyOf(asked.cacheKey))), 'nothing stored under the blank key');
      assert.ok(await cache.get(pageImageKeyOf(now.cacheKey)), 'stored under the filled version');
      // The other blank form's signer gets a blank picture, not the filled one.
      const res = await h.app.inject({ url: `/sign/${other.tokens[0]}/first-page.webp` });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['etag'], `"${asked.version}-p1"`);
      assert.notDeepEqual(new Uint8Array(res.rawPayload), drawn.image);
    });

    it('one reader leaving does not fail the others drawing the same picture', async () => {
      const templateId = await sampleTemplate(h, h.actors.aTest.partition);
      const p = h.actors.aTest.partition;
      const { formId } = await sendTo(h, h.actors.aTest, templateId, ['leaver@example.com'], { full_name: 'Leaving Reader' });
      const leaving = new AbortController();
      const first = firstPageImage(h.deps.domain, p, formId, undefined, leaving.signal);
      const second = firstPageImage(h.deps.domain, p, formId);
      setTimeout(() => leaving.abort(), 20);
      const [a, b] = await Promise.allSettled([first, second]);
      assert.equal(b.status, 'fulfilled', b.status === 'rejected' ? String(b.reason) : '');
      assert.ok(b.value.image && b.value.image.length > 1000);
      // The leaver may have been answered before it left, or refused; never the other way round.
      if (a.status === 'fulfilled') assert.deepEqual(a.value.image, b.value.image);
    });

    it('a document stored without its sizes (before 0105) is measured the first time a page needs them', async () => {
      const templateId = await sampleTemplate(h, h.actors.aTest.partition);
      const { tokens } = await sendTo(h, h.actors.aTest, templateId, ['old@example.com']);
      const template = await h.deps.domain.db.selectFrom('templates').select('pdf_key').where('id', '=', templateId).executeTakeFirstOrThrow();
      await h.deps.domain.db.deleteFrom('document_pages').where('pdf_key', '=', template.pdf_key).execute();
      const page = await h.app.inject({ url: `/sign/${tokens[0]}` });
      assert.equal(page.statusCode, 200);
      // Measured within the page's short wait (MEASURE_WAIT_MS) on an idle pool; kept either way.
      for (let i = 0; i < 100 && (await rowsOf(template.pdf_key)).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      const rows = await rowsOf(template.pdf_key);
      assert.equal(rows.length, 1, 'kept after measuring');
      const sizes = JSON.parse(rows[0]!.page_sizes) as Array<[number, number]>;
      const laid = configOf(page.body).pages;
      if (laid !== null) assert.deepEqual(laid, sizes);
      assert.ok(sizes.length >= 1 && sizes.every(([w, hgt]) => w > 100 && hgt > 100), JSON.stringify(sizes));
    });
    it('a measurement stuck behind the pool does not hold the page: sent without sizes, kept for the next view', async () => {
      const templateId = await sampleTemplate(h, h.actors.aTest.partition);
      const { tokens } = await sendTo(h, h.actors.aTest, templateId, ['slowpool@example.com']);
      const template = await h.deps.domain.db.selectFrom('templates').select('pdf_key').where('id', '=', templateId).executeTakeFirstOrThrow();
      await h.deps.domain.db.deleteFrom('document_pages').where('pdf_key', '=', template.pdf_key).execute();
      const pool = h.deps.domain.pdfPages as { pageSizes: typeof h.deps.domain.pdfPages.pageSizes };
      const real = pool.pageSizes;
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      // The `pages` job waits behind a seal backlog.
      pool.pageSizes = async (...args) => {
        await held;
        return real.apply(pool, args);
      };
      try {
        const started = Date.now();
        const page = await h.app.inject({ url: `/sign/${tokens[0]}` });
        const took = Date.now() - started;
        assert.equal(page.statusCode, 200);
        assert.ok(took < MEASURE_WAIT_MS + 2000, `${took} ms`);
        assert.equal(configOf(page.body).pages, null, 'laid out from the PDF');
        assert.equal((await rowsOf(template.pdf_key)).length, 0);
      } finally {
        pool.pageSizes = real;
        release();
      }
      // The measurement finishes in the background and is kept: the next view has the sizes.
      for (let i = 0; i < 100 && (await rowsOf(template.pdf_key)).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      const next = await h.app.inject({ url: `/sign/${tokens[0]}` });
      assert.deepEqual(configOf(next.body).pages, [[612, 792]]);
    });
  });
}
