// Issue 35 (item 9): a template whose stored source PDF is gone from the file store. Relabel from the
// PDF and the preview answered 500; they answer 409 source_pdf_missing, which says what is gone and
// what to do, and the template itself still reads.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';
import { fixture } from '../shared/fixtures.js';
import { multipart } from '../shared/multipart.js';

for (const dialect of DIALECTS) {
  describe(`a template whose source PDF is missing (${dialect})`, () => {
    let h: Harness;
    before(async () => { h = await createHarness(dialect); });
    after(() => h.close());

    it('relabel and preview answer 409 source_pdf_missing; reading the template still works', async () => {
      const m = multipart([{ name: 'file', value: fixture('lima_oxygen_prescription_fr.pdf'), filename: 'form.pdf' }]);
      const created = await h.request({ method: 'POST', url: '/api/v1/templates', as: h.actors.aTest, payload: m.payload, headers: m.headers });
      assert.equal(created.status, 201, created.body);
      const { id } = created.json<{ id: string }>();
      const row = await h.deps.database.db.selectFrom('templates').select('pdf_key').where('id', '=', id).executeTakeFirstOrThrow();
      await h.deps.domain.blobs.delete(row.pdf_key);
      // The template cache may hold the row, never the PDF: the store is asked each time.
      for (const res of [
        await h.request({ method: 'POST', url: `/api/v1/templates/${id}/relabel`, as: h.actors.aTest }),
        await h.request({ url: `/api/v1/templates/${id}/preview`, as: h.actors.aTest }),
      ]) {
        assert.equal(res.status, 409, res.body);
        const error = errorOf(res);
        assert.equal(error.type, 'conflict_error');
        assert.equal(error.code, 'source_pdf_missing');
        assert.match(error.message, new RegExp(`source PDF of template '${id}' is missing`));
      }
      const read = await h.request({ url: `/api/v1/templates/${id}`, as: h.actors.aTest });
      assert.equal(read.status, 200);
      assert.equal(read.json<{ fields: unknown[] }>().fields.length, 37);
    });
  });
}
