import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';
import { FIXTURE_FIELDS, FIXTURES_DIR, fixture } from '../shared/fixtures.js';
import { multipart } from '../shared/multipart.js';

interface Field { name: string; type: string; page: number; x: number; y: number; width: number; height: number; options?: string[] }
interface Template { id: string; name: string; page_count: number; fields: Field[]; warnings: string[]; signer_count: number }

for (const dialect of DIALECTS) {
  describe(`template upload (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(dialect);
    });
    after(() => h.close());

    const upload = (parts: Parameters<typeof multipart>[0], as = h.actors.aTest) => {
      const m = multipart(parts);
      return h.request({ method: 'POST', url: '/api/v1/templates', as, payload: m.payload, headers: m.headers });
    };

    for (const [file, expected] of Object.entries(FIXTURE_FIELDS)) {
      it(`imports ${file}: ${expected.total} fields of the right types`, async () => {
        const res = await upload([{ name: 'file', value: fixture(file), filename: file }]);
        assert.equal(res.status, 201, res.body.slice(0, 300));
        const t = res.json<Template>();
        assert.equal(t.name, file.replace(/\.pdf$/, ''));
        assert.equal(t.page_count, expected.pages);
        assert.equal(t.fields.length, expected.total);
        const counts: Record<string, number> = {};
        for (const f of t.fields) counts[f.type] = (counts[f.type] ?? 0) + 1;
        assert.deepEqual(counts, expected.types);
        for (const f of t.fields) {
          assert.ok(f.page >= 1 && f.page <= t.page_count, `${f.name} page`);
          if (f.type === 'radio' || f.type === 'select') assert.ok((f.options ?? []).length > 0, `${f.name} options`);
        }
        if (expected.warning) assert.ok(t.warnings.some((w) => expected.warning!.test(w)), `warnings: ${t.warnings.join(' | ')}`);
        const got = await h.request({ url: `/api/v1/templates/${t.id}`, as: h.actors.aTest });
        assert.deepEqual(got.json(), t);
      });
    }

    it('a name part and JSON fields for a flat PDF', async () => {
      const fields = [
        { name: 'client', type: 'text', page: 1, x: 72, y: 90, width: 250, height: 18, required: true },
        { name: 'agree', type: 'checkbox', page: 1, x: 72, y: 120, width: 12, height: 12 },
        { name: 'sig', type: 'signature', page: 1, x: 72, y: 700, width: 200, height: 40, signer: 2 },
      ];
      const flat = execFileSync('qpdf', ['--empty', '--pages', path.join(FIXTURES_DIR, 'osha_form_301_injury_report.pdf'), '1', '--', '--flatten-annotations=all', '--remove-restrictions', '-'], { maxBuffer: 1 << 26 });
      const res = await upload([{ name: 'name', value: 'Flat contract' }, { name: 'fields', value: JSON.stringify(fields) }, { name: 'file', value: flat, filename: 'flat.pdf' }]);
      assert.equal(res.status, 201, res.body);
      const t = res.json<Template>();
      assert.equal(t.name, 'Flat contract');
      assert.equal(t.signer_count, 2);
      assert.deepEqual(t.fields.map((f) => [f.name, f.type]), [['client', 'text'], ['agree', 'checkbox'], ['sig', 'signature']]);
    });

    it('refuses bad field JSON with a param naming the field', async () => {
      const pdf = fixture('openoffice_form_example.pdf');
      const cases: Array<[string, string, string]> = [
        ['not json', 'parameter_invalid', 'fields'],
        ['{"a":1}', 'parameter_invalid', 'fields'],
        ['[{"name":"a","type":"bogus","x":0,"y":0,"width":1,"height":1}]', 'parameter_invalid', 'fields[0].type'],
        ['[{"name":"a","type":"radio","x":0,"y":0,"width":1,"height":1}]', 'parameter_invalid', 'fields[0].options'],
        ['[{"name":"a","type":"text","x":0,"y":0,"width":1,"height":1,"page":9}]', 'parameter_invalid', 'fields[0].page'],
        ['[{"name":"a","type":"text","x":0,"y":0,"width":1,"height":1,"colour":"red"}]', 'parameter_unknown', 'fields[0].colour'],
      ];
      for (const [json, code, param] of cases) {
        const res = await upload([{ name: 'fields', value: json }, { name: 'file', value: pdf, filename: 'x.pdf' }]);
        assert.equal(res.status, 400, json);
        assert.deepEqual([errorOf(res).code, errorOf(res).param], [code, param], json);
      }
    });

    it('hostile and broken files get their code fast, and the server keeps answering', async () => {
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-bad-'));
      const encrypted = path.join(tmp, 'enc.pdf');
      execFileSync('qpdf', ['--encrypt', 'user-secret', 'owner-secret', '256', '--', path.join(FIXTURES_DIR, 'openoffice_form_example.pdf'), encrypted]);
      const osha = fixture('osha_form_301_injury_report.pdf');
      const cases: Array<[string, Buffer, string]> = [
        ['random bytes', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)), 'pdf_invalid'],
        ['truncated', osha.subarray(0, Math.floor(osha.length / 3)), 'pdf_invalid'],
        ['%PDF + garbage', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x41)]), 'pdf_invalid'],
        ['empty file', Buffer.alloc(0), 'pdf_invalid'],
        ['user password', fs.readFileSync(encrypted), 'pdf_encrypted'],
      ];
      for (const [name, bytes, code] of cases) {
        const started = Date.now();
        const res = await upload([{ name: 'file', value: bytes, filename: `${name}.pdf` }]);
        assert.equal(res.status, 400, `${name}: ${res.body}`);
        assert.equal(errorOf(res).code, code, name);
        assert.equal(errorOf(res).param, 'file');
        assert.ok(Date.now() - started < 5000, `${name} took ${Date.now() - started} ms`);
        assert.equal((await h.request({ url: '/healthz' })).status, 200);
      }
      fs.rmSync(tmp, { recursive: true, force: true });
    });

    it('over 20 MiB → 413 payload_too_large; no file → parameter_missing; JSON → 415; unknown part → parameter_unknown', async () => {
      const big = await upload([{ name: 'file', value: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(20 * 1024 * 1024 + 10)]), filename: 'big.pdf' }]);
      assert.equal(big.status, 413);
      assert.equal(errorOf(big).code, 'payload_too_large');
      const none = await upload([{ name: 'name', value: 'x' }]);
      assert.deepEqual([none.status, errorOf(none).code, errorOf(none).param], [400, 'parameter_missing', 'file']);
      const json = await h.request({ method: 'POST', url: '/api/v1/templates', as: h.actors.aTest, json: { name: 'x' } });
      assert.deepEqual([json.status, errorOf(json).code], [415, 'unsupported_media_type']);
      const unknown = await upload([{ name: 'colour', value: 'red' }, { name: 'file', value: fixture('openoffice_form_example.pdf'), filename: 'a.pdf' }]);
      assert.deepEqual([unknown.status, errorOf(unknown).code, errorOf(unknown).param], [400, 'parameter_unknown', 'colour']);
      assert.equal((await h.request({ url: '/api/v1/templates?limit=100', as: h.actors.bTest })).json<{ data: unknown[] }>().data.length, 0);
    });
  });
}
