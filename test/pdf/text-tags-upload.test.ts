import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { multipart } from '../shared/multipart.js';

// Text tags on upload (issue 41), on a Word document exported to PDF by LibreOffice
// (test/fixtures/tags): each readable tag becomes a field where pdftotext finds the tag's text, role
// names become the template's named signer slots, a tag that cannot be read is a warning naming its
// page and text, and every tag is covered, so the rendered form shows white where the tag was.

const FIXTURE = new URL('../fixtures/tags/lease.pdf', import.meta.url);

interface Word { text: string; x: number; y: number; right: number; bottom: number }
/** Where pdftotext finds each `{{…}}` word in the original (points, top-left origin). */
function tagWords(file: string): Word[] {
  const out = spawnSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' }).stdout;
  return [...out.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(\{\{[^<]*\}\})<\/word>/g)]
    .map((m) => ({ text: m[5]!, x: Number(m[1]), y: Number(m[2]), right: Number(m[3]), bottom: Number(m[4]) }));
}

/** The share of non-white pixels in a box of page 1 of `file`, rendered at 72 dpi in grey. */
function inkIn(file: string, box: { x: number; y: number; right: number; bottom: number }): number {
  const args = ['-gray', '-r', '72', '-f', '1', '-l', '1', '-x', String(Math.floor(box.x)), '-y', String(Math.floor(box.y)), '-W', String(Math.ceil(box.right - box.x)), '-H', String(Math.ceil(box.bottom - box.y)), file];
  const pgm = spawnSync('pdftoppm', args, { maxBuffer: 1 << 24 }).stdout;
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 50).toString('latin1'));
  assert.ok(header, 'pdftoppm wrote a PGM');
  const pixels = pgm.subarray(header[0].length);
  let dark = 0;
  for (const p of pixels) if (p < 200) dark += 1;
  return dark / pixels.length;
}

for (const dialect of DIALECTS) {
  describe(`text tags on upload (${dialect})`, () => {
    let h: Harness;
    let dir: string;
    before(async () => {
      h = await createHarness(dialect);
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-tags-'));
    });
    after(async () => {
      fs.rmSync(dir, { recursive: true, force: true });
      await h.close();
    });

    it('makes a field at each tag, names the roles, warns on the tags it cannot read, and covers every tag', async () => {
      const as = h.actors.aTest;
      const m = multipart([{ name: 'file', value: fs.readFileSync(FIXTURE), filename: 'lease.pdf' }, { name: 'name', value: 'Lease' }]);
      const res = await h.request({ method: 'POST', url: '/api/v1/templates', as, payload: m.payload, headers: m.headers });
      assert.equal(res.status, 201, res.body);
      const t = res.json<{ id: string; fields: Array<{ name: string; type: string; signer: number; required: boolean; x: number; y: number; width: number; height: number; options?: string[] }>; signers: unknown; warnings: string[] }>();
      assert.deepEqual(t.fields.map((f) => [f.name, f.type, f.signer, f.required]), [
        ['tenant_name', 'text', 1, true], ['rent', 'number', 2, false], ['pets', 'select', 2, false], ['имя', 'text', 3, false],
        ['όνομα', 'text', 3, false], ['tenant_sign', 'signature', 1, true], ['landlord_sign', 'signature', 2, true],
      ]);
      assert.deepEqual(t.fields.find((f) => f.name === 'pets')?.options, ['Yes', 'No']);
      assert.deepEqual(t.signers, [{ slot: 1, role: 'Tenant' }, { slot: 2, role: 'Landlord' }, { slot: 3, role: 'Поручитель' }]);
      assert.equal(t.warnings.length, 2, t.warnings.join('\n'));
      assert.match(t.warnings[0]!, /Text tag \{\{;type=text\}\} on page 1 was not read: it names no field/);
      assert.match(t.warnings[1]!, /Text tag \{\{x;type=banana\}\} on page 1 was not read: "banana" is not a field type/);

      // Each field sits where its tag was printed (within a few points: pdf.js gives words, not glyphs).
      const words = tagWords(FIXTURE.pathname);
      for (const f of t.fields) {
        const word = words.find((w) => w.text.startsWith(`{{${f.name};`));
        assert.ok(word, f.name);
        assert.ok(Math.abs(f.x - word.x) <= 6, `${f.name}: x ${f.x} near ${word.x}`);
        assert.ok(Math.abs(f.y - word.y) <= 4, `${f.name}: y ${f.y} near ${word.y}`);
        if (f.name === 'tenant_sign') assert.deepEqual([f.width, f.height], [180, 36], 'w and h as the tag says');
        else assert.ok(Math.abs(f.x + f.width - word.right) <= 8, `${f.name}: right edge ${f.x + f.width} near ${word.right}`);
      }

      // The tags are covered: a form from the template, rendered with no values, is white where each tag was.
      const original = inkIn(FIXTURE.pathname, words[0]!);
      assert.ok(original > 0.05, `the original shows the tag (${original})`);
      const form = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: t.id } });
      assert.equal(form.status, 201, form.body);
      const pdf = await h.request({ url: `/api/v1/forms/${form.json<{ id: string }>().id}/pdf`, as });
      assert.equal(pdf.status, 200);
      const file = path.join(dir, `${dialect}.pdf`);
      fs.writeFileSync(file, pdf.rawPayload);
      for (const w of words) assert.equal(inkIn(file, w), 0, `nothing of ${w.text} shows`);
    });
  });
}
