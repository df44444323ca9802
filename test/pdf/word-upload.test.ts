import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { zipSync } from 'fflate';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { multipart } from '../shared/multipart.js';

// Word and OpenDocument uploads (issue 41): a .docx written by LibreOffice, converted by LibreOffice
// (the real program, in a fresh profile) and then read like a PDF, its text tags included; an .odt
// too; a zip bomb, a zip that is no document and a damaged file refused with 422
// document_unconvertible and their reason; a server without LibreOffice says how to install it while
// PDFs still work.

const DOCX = fs.readFileSync(new URL('../fixtures/tags/lease.docx', import.meta.url));

type Template = { id: string; name: string; page_count: number; fields: Array<{ name: string; type: string; signer: number }>; signers: unknown };

for (const dialect of DIALECTS) {
  describe(`Word and OpenDocument uploads (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(dialect);
    });
    after(() => h.close());
    const upload = (harness: Harness, file: Buffer, filename: string) => {
      const m = multipart([{ name: 'file', value: file, filename }]);
      return harness.request({ method: 'POST', url: '/api/v1/templates', as: harness.actors.aTest, payload: m.payload, headers: m.headers });
    };

    it('converts a .docx with LibreOffice and reads its text tags into fields and roles', async () => {
      const res = await upload(h, DOCX, 'Lease 2026.docx');
      assert.equal(res.status, 201, res.body);
      const t = res.json<Template>();
      assert.equal(t.name, 'Lease 2026', 'named after the file, without .docx');
      assert.equal(t.page_count, 1);
      assert.deepEqual(t.fields.map((f) => [f.name, f.type, f.signer]), [
        ['tenant_name', 'text', 1], ['rent', 'number', 2], ['pets', 'select', 2], ['имя', 'text', 3],
        ['όνομα', 'text', 3], ['tenant_sign', 'signature', 1], ['landlord_sign', 'signature', 2],
      ]);
      assert.deepEqual(t.signers, [{ slot: 1, role: 'Tenant' }, { slot: 2, role: 'Landlord' }, { slot: 3, role: 'Поручитель' }]);
      // The stored template is a PDF: a form from it renders.
      const form = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: t.id, prefill: { tenant_name: 'Ada Lovelace' } } });
      assert.equal(form.status, 201, form.body);
      const pdf = await h.request({ url: `/api/v1/forms/${form.json<{ id: string }>().id}/pdf`, as: h.actors.aTest });
      assert.equal(pdf.status, 200);
      assert.equal(pdf.rawPayload.subarray(0, 5).toString('latin1'), '%PDF-');
    });

    it('refuses a zip bomb, a zip that is no document and a damaged document with 422 and the reason', async () => {
      const bomb = Buffer.from(zipSync({ 'word/document.xml': new Uint8Array(200 * 1024 * 1024) }, { level: 9 }));
      assert.ok(bomb.length < 1024 * 1024, `the bomb is small (${bomb.length} bytes)`);
      const cases: Array<[Buffer, string, RegExp]> = [
        [bomb, 'bomb.docx', /compressed bomb/],
        [Buffer.from(zipSync({ 'readme.txt': new TextEncoder().encode('hello') })), 'notes.zip', /not a Word document/],
        [Buffer.from(zipSync({ 'word/document.xml': new TextEncoder().encode('<not really word') })), 'broken.docx', /could not convert/],
      ];
      for (const [file, name, reason] of cases) {
        const res = await upload(h, file, name);
        assert.equal(res.status, 422, `${name}: ${res.body}`);
        const error = res.json<{ error: { code: string; param: string; message: string } }>().error;
        assert.equal(error.code, 'document_unconvertible');
        assert.equal(error.param, 'file');
        assert.match(error.message, reason, name);
      }
    });

    it('without LibreOffice, a Word upload says how to install it, and PDFs still import', async () => {
      const bare = await createHarness(dialect, { env: { LIBREOFFICE_PATH: '/nonexistent/soffice' } });
      try {
        const res = await upload(bare, DOCX, 'lease.docx');
        assert.equal(res.status, 422, res.body);
        assert.match(res.json<{ error: { message: string } }>().error.message, /apt-get install libreoffice-writer-nogui/);
        const pdf = await upload(bare, fs.readFileSync(new URL('../fixtures/tags/lease.pdf', import.meta.url)), 'lease.pdf');
        assert.equal(pdf.status, 201, pdf.body);
      } finally {
        await bare.close();
      }
    });
  });
}

describe('OpenDocument upload', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness('sqlite');
  });
  after(() => h.close());
  it('converts an .odt made by LibreOffice', async () => {
    const odt = fs.readFileSync(new URL('../fixtures/tags/lease.odt', import.meta.url));
    const m = multipart([{ name: 'file', value: odt, filename: 'lease.odt' }]);
    const res = await h.request({ method: 'POST', url: '/api/v1/templates', as: h.actors.aTest, payload: m.payload, headers: m.headers });
    assert.equal(res.status, 201, res.body);
    assert.equal(res.json<Template>().fields.length, 7);
  });
});
