import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';
import { fixture } from '../shared/fixtures.js';
import { multipart } from '../shared/multipart.js';

// Named signer slots (issue 24): a template's `signers` [{slot, role}] — the generated form's shape —
// set by PATCH (the builder's save), kept by field edits, returned by GET and the list, checked with
// the contract's error shape, and kept by a template saved from a generated form.

interface Role { slot: number; role: string }
interface Template { id: string; fields: Array<{ name: string; signer: number }>; signer_count: number; signers: Role[]; updated_at: string }

const FIXTURE = 'openoffice_form_example.pdf';

for (const dialect of DIALECTS) {
  describe(`template signer roles (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(dialect);
    });
    after(() => h.close());

    async function upload(): Promise<Template> {
      const m = multipart([{ name: 'file', value: fixture(FIXTURE), filename: FIXTURE }]);
      const res = await h.request({ method: 'POST', url: '/api/v1/templates', as: h.actors.aTest, payload: m.payload, headers: m.headers });
      assert.equal(res.status, 201, res.body);
      return res.json<Template>();
    }
    const patch = (id: string, json: unknown, as = h.actors.aTest) => h.request({ method: 'PATCH', url: `/api/v1/templates/${id}`, as, json });
    const get = async (id: string): Promise<Template> => (await h.request({ url: `/api/v1/templates/${id}`, as: h.actors.aTest })).json<Template>();

    it('a new template names no slot; PATCH signers names them (ordered by slot, trimmed), GET and the list answer the same', async () => {
      const t = await upload();
      assert.deepEqual(t.signers, []);
      const res = await patch(t.id, { signers: [{ slot: 2, role: '  Landlord ' }, { slot: 1, role: 'Tenant' }] });
      assert.equal(res.status, 200, res.body);
      const named = res.json<Template>();
      assert.deepEqual(named.signers, [{ slot: 1, role: 'Tenant' }, { slot: 2, role: 'Landlord' }]);
      assert.deepEqual(named.fields, t.fields, 'naming slots leaves the fields as they are');
      assert.deepEqual(await get(t.id), named);
      const list = (await h.request({ url: '/api/v1/templates?limit=100', as: h.actors.aTest })).json<{ data: Template[] }>();
      assert.deepEqual(list.data.find((x) => x.id === t.id)?.signers, named.signers);
    });

    it('a field edit keeps the names; an empty list removes them; the other account and mode do not find the template', async () => {
      const t = await upload();
      await patch(t.id, { signers: [{ slot: 1, role: 'Buyer' }] });
      const fields = t.fields.map((f, i) => ({ ...f, signer: i === 0 ? 2 : 1 }));
      const edited = await patch(t.id, { fields, name: 'Sale' });
      assert.equal(edited.status, 200, edited.body);
      assert.deepEqual(edited.json<Template>().signers, [{ slot: 1, role: 'Buyer' }]);
      assert.equal(edited.json<Template>().signer_count, 2);
      assert.equal(errorOf(await patch(t.id, { signers: [{ slot: 1, role: 'Mine' }] }, h.actors.bTest)).code, 'resource_not_found');
      assert.deepEqual((await get(t.id)).signers, [{ slot: 1, role: 'Buyer' }], 'the refused call changed nothing');
      const cleared = await patch(t.id, { signers: [] });
      assert.deepEqual(cleared.json<Template>().signers, []);
      assert.deepEqual((await get(t.id)).signers, []);
    });

    it('refuses a slot named twice, a blank role, a slot past 100 and unknown keys, in the contract error shape', async () => {
      const t = await upload();
      const cases: Array<[unknown, string, string]> = [
        [[{ slot: 1, role: 'A' }, { slot: 1, role: 'B' }], 'parameter_invalid', 'signers[1].slot'],
        [[{ slot: 1, role: '   ' }], 'parameter_invalid', 'signers[0].role'],
        [[{ slot: 101, role: 'Too far' }], 'parameter_invalid', 'signers[0].slot'],
        [[{ slot: 1, role: 'x'.repeat(121) }], 'parameter_invalid', 'signers[0].role'],
      ];
      for (const [signers, code, param] of cases) {
        const res = await patch(t.id, { signers });
        assert.equal(res.status, 400, res.body);
        const e = errorOf(res);
        assert.equal(e.code, code, res.body);
        assert.equal(e.param, param, res.body);
      }
      const unknown = await patch(t.id, { signers: [{ slot: 1, role: 'A', colour: 'red' }] });
      assert.equal(unknown.status, 400, unknown.body);
      assert.match(errorOf(unknown).code, /^parameter_(unknown|invalid)$/);
      assert.deepEqual((await get(t.id)).signers, [], 'nothing was stored by a refused call');
    });

    it('a template saved from a generated form keeps its roles, in the shape the form answered with', async () => {
      const res = await h.request({
        method: 'POST', url: '/api/v1/forms/generate', as: h.actors.aTest,
        json: { prompt: 'Lease: property address, monthly rent, start date. The tenant and landlord both sign and date.', save_as_template: true },
      });
      assert.equal(res.status, 201, res.body);
      const form = res.json<{ template_id: string; signers: Role[] }>();
      assert.deepEqual(form.signers, [{ slot: 1, role: 'Tenant' }, { slot: 2, role: 'Landlord' }]);
      const t = await get(form.template_id);
      assert.deepEqual(t.signers, form.signers);
      assert.equal(t.signer_count, 2);
    });
  });
}
