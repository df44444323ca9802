// GET /api/v1/templates/{id}/preview: the template's pages with each field's rectangle outlined and
// named, so a developer can check the coordinates of fields given as JSON by eye.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PDFDocument } from '@cantoo/pdf-lib';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';
import { inkIn, pdfToText, qpdfCheck, wordBoxes } from '../pdf/support/fixtures.js';
import { FIXTURES_DIR, fixture } from '../shared/fixtures.js';
import { multipart } from '../shared/multipart.js';

interface Field { name: string; type: string; page: number; x: number; y: number; width: number; height: number; signer: number }
interface Template { id: string; page_count: number; fields: Field[] }

for (const dialect of DIALECTS) {
  describe(`template preview (${dialect})`, () => {
    let h: Harness;
    before(async () => { h = await createHarness(dialect); });
    after(() => h.close());

    const upload = async (parts: Parameters<typeof multipart>[0]): Promise<Template> => {
      const m = multipart(parts);
      const res = await h.request({ method: 'POST', url: '/api/v1/templates', as: h.actors.aTest, payload: m.payload, headers: m.headers });
      assert.equal(res.status, 201, res.body);
      return res.json<Template>();
    };

    it('outlines and names each JSON field of a flat PDF where its coordinates put it', async () => {
      const fields = [
        { name: 'client_name', type: 'text', page: 1, x: 72, y: 200, width: 250, height: 18, required: true },
        { name: 'agree', type: 'checkbox', page: 1, x: 72, y: 260, width: 12, height: 12 },
        { name: 'witness_sig', type: 'signature', page: 1, x: 300, y: 600, width: 200, height: 40, signer: 2 },
      ];
      const flat = execFileSync('qpdf', ['--empty', '--pages', path.join(FIXTURES_DIR, 'osha_form_301_injury_report.pdf'), '1', '--', '--flatten-annotations=all', '--remove-restrictions', '-'], { maxBuffer: 1 << 26 });
      const t = await upload([{ name: 'fields', value: JSON.stringify(fields) }, { name: 'file', value: flat, filename: 'flat.pdf' }]);

      const res = await h.request({ url: `/api/v1/templates/${t.id}/preview`, as: h.actors.aTest });
      assert.equal(res.status, 200, res.body.slice(0, 300));
      assert.equal(res.headers['content-type'], 'application/pdf');
      assert.match(String(res.headers['content-disposition']), new RegExp(`^inline; filename="${t.id}-preview\\.pdf"$`));
      const pdf = new Uint8Array(res.rawPayload);
      assert.equal(qpdfCheck(pdf).status, 0);
      assert.equal((await PDFDocument.load(pdf)).getPageCount(), 1);
      const text = pdfToText(pdf);
      assert.match(text, /client_name · text, required/);
      assert.match(text, /witness_sig · signature · signer 2/);
      // Each tag sits on its field's top edge, starting at its left edge.
      const boxes = wordBoxes(pdf);
      for (const f of fields) {
        const tag = boxes.find((b) => b.word === f.name);
        assert.ok(tag, `${f.name} is named on the page`);
        assert.ok(Math.abs(tag.xMin - (f.x + 1.5)) < 2, `${f.name} tag starts at x ${tag.xMin}, the field at ${f.x}`);
        assert.ok(tag.yMax <= f.y + 1 && tag.yMin >= f.y - 12, `${f.name} tag (${tag.yMin}–${tag.yMax}) stands just above y ${f.y}`);
        // The outline is drawn: the field's edges have ink where the original page has none.
        assert.ok(inkIn(pdf, 1, { x: Math.round(f.x), y: Math.round(f.y + f.height / 2) - 1, width: 2, height: 3 }) > 0, `${f.name} left edge drawn`);
      }
    });

    it('covers every detected field of a real AcroForm, on every page', async () => {
      const t = await upload([{ name: 'file', value: fixture('openoffice_form_example.pdf'), filename: 'form.pdf' }]);
      const res = await h.request({ url: `/api/v1/templates/${t.id}/preview`, as: h.actors.aTest });
      assert.equal(res.status, 200);
      const pdf = new Uint8Array(res.rawPayload);
      assert.equal(qpdfCheck(pdf).status, 0);
      const loaded = await PDFDocument.load(pdf);
      assert.equal(loaded.getPageCount(), t.page_count);
      assert.equal(loaded.getForm().getFields().length > 0, true, 'the form itself is left as it was');
      const text = pdfToText(pdf).replace(/\s+/g, ' ');
      for (const f of t.fields) assert.ok(text.includes(`${f.name} · ${f.type}`), `${f.name} is tagged`);
    });

    it('another partition\'s template and an unknown id are not found', async () => {
      const t = await upload([{ name: 'file', value: fixture('openoffice_form_example.pdf'), filename: 'form.pdf' }]);
      const foreign = await h.request({ url: `/api/v1/templates/${t.id}/preview`, as: h.actors.bTest });
      assert.equal(foreign.status, 404);
      assert.equal(errorOf(foreign).code, 'resource_not_found');
      const live = await h.request({ url: `/api/v1/templates/${t.id}/preview`, as: h.actors.aLive });
      assert.equal(live.status, 404);
      const unknown = await h.request({ url: '/api/v1/templates/tmpl_00000000000000000000000000/preview', as: h.actors.aTest });
      assert.equal(unknown.status, 404);
      assert.match(errorOf(unknown).message, /template/i);
    });
  });
}
