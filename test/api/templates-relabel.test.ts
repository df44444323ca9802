import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, errorOf, type Harness, type TestResponse } from '../harness.js';
import { fixture } from '../shared/fixtures.js';
import { multipart } from '../shared/multipart.js';

// "Relabel from the PDF" (POST /api/v1/templates/{id}/relabel): a template whose fields lost their
// labels, or never had them (made before labels were imported), gets the PDF's labels back — the 1040
// from its XFA tooltips, the DS-11 from /TU — while labels someone wrote and boxes drawn on a page are
// left alone, forms already made keep their fields, a second call changes nothing, and an
// Idempotency-Key replays the first answer.

interface Field { name: string; type: string; page: number; x: number; y: number; width: number; height: number; required: boolean; signer: number; label?: string }
interface Template { id: string; fields: Field[]; updated_at: string }

const F1040 = 'irs_f1040_2019_xfa_hybrid.pdf';
const DS11 = 'us_state_ds11_passport_application.pdf';
const FIRST_NAME = 'topmostSubform[0].Page1[0].f1_02[0]';
const LAST_NAME = 'topmostSubform[0].Page1[0].f1_03[0]';
const SSN = 'topmostSubform[0].Page1[0].YourSocial_ReadOrderControl[0].f1_04[0]';
const JOINTLY = 'topmostSubform[0].Page1[0].FilingStatus[0].c1_01[1]';
const APT = 'topmostSubform[0].Page1[0].ReadOrderControl[0].Address[0].f1_09[0]';
const DRAWN: Field = { name: 'drawn_note', type: 'text', required: false, signer: 1, page: 1, x: 60, y: 700, width: 200, height: 20 };

for (const dialect of DIALECTS) {
  describe(`relabel a template from its PDF (${dialect})`, () => {
    let h: Harness;
    before(async () => { h = await createHarness(dialect); });
    after(() => h?.close());

    const upload = async (file: string): Promise<Template> => {
      const m = multipart([{ name: 'file', value: fixture(file), filename: file }]);
      const res = await h.request({ method: 'POST', url: '/api/v1/templates', as: h.actors.aTest, payload: m.payload, headers: m.headers });
      assert.equal(res.status, 201, res.body);
      return res.json<Template>();
    };
    const patchFields = async (id: string, fields: Field[]): Promise<Template> => {
      const res = await h.request({ method: 'PATCH', url: `/api/v1/templates/${id}`, as: h.actors.aTest, json: { fields } });
      assert.equal(res.status, 200, res.body);
      return res.json<Template>();
    };
    const relabel = (id: string, headers: Record<string, string> = {}, as = h.actors.aTest): Promise<TestResponse> =>
      h.request({ method: 'POST', url: `/api/v1/templates/${id}/relabel`, as, headers });
    const labelOf = (t: { fields: Field[] }, name: string): string | undefined => t.fields.find((f) => f.name === name)?.label;
    const unlabelled = ({ label: _label, ...f }: Field): Field => f;

    it('the 1040: unset labels (none, blank, the raw name) get the XFA tooltips; written ones and drawn boxes stay', async () => {
      const imported = await upload(F1040);
      assert.equal(labelOf(imported, FIRST_NAME), 'Your first name and middle initial');
      // As a template made before labels were imported looks, with three kinds of "unset" and one written label.
      const old = imported.fields.map((f) => {
        if (f.name === LAST_NAME) return { ...f, label: f.name };
        if (f.name === SSN) return { ...f, label: '  ' };
        if (f.name === APT) return { ...f, label: 'Flat number (written by the sender)' };
        return unlabelled(f);
      });
      const stripped = await patchFields(imported.id, [...old, DRAWN]);
      assert.equal(labelOf(stripped, FIRST_NAME), undefined);
      // A form made now keeps the fields it was made with.
      const form = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: imported.id } });
      assert.equal(form.status, 201, form.body);

      const res = await relabel(imported.id);
      assert.equal(res.status, 200, res.body);
      const t = res.json<Template>();
      assert.equal(t.fields.length, imported.fields.length + 1, 'no field added or lost');
      assert.equal(labelOf(t, FIRST_NAME), 'Your first name and middle initial');
      assert.equal(labelOf(t, LAST_NAME), 'Your first name and middle initial: Last name', 'a label equal to the raw name is replaced');
      assert.equal(labelOf(t, SSN), 'Your social security number', 'a blank label is replaced');
      assert.equal(labelOf(t, JOINTLY), 'Married filing jointly');
      assert.equal(labelOf(t, APT), 'Flat number (written by the sender)', 'a written label is kept');
      assert.equal(labelOf(t, DRAWN.name), undefined, 'a box the PDF does not name is left alone');
      assert.deepEqual(t.fields.map((f) => f.name), stripped.fields.map((f) => f.name), 'the order is kept');
      assert.deepEqual(t.fields.map(({ label: _l, ...f }) => f), stripped.fields.map(({ label: _l, ...f }) => f), 'only labels change');
      assert.equal(t.fields.filter((f) => f.label === undefined).length, 1, 'every field of the PDF has a label again');
      // GET answers the same at once.
      const got = (await h.request({ url: `/api/v1/templates/${imported.id}`, as: h.actors.aTest })).json<Template>();
      assert.equal(labelOf(got, LAST_NAME), 'Your first name and middle initial: Last name');
      const kept = (await h.request({ url: `/api/v1/forms/${form.json<{ id: string }>().id}`, as: h.actors.aTest })).json<Template>();
      assert.equal(labelOf(kept, FIRST_NAME), undefined, 'the form made before keeps its unlabelled field');

      // Nothing left to relabel: nothing changes, not even updated_at.
      const again = await relabel(imported.id);
      assert.equal(again.status, 200, again.body);
      assert.equal(again.json<Template>().updated_at, t.updated_at);
      assert.deepEqual(again.json<Template>().fields, t.fields);
    });

    it('the DS-11: labels from /TU; an Idempotency-Key replays the first answer byte for byte', async () => {
      const imported = await upload(DS11);
      assert.equal(labelOf(imported, 'Applicant Address Street'), 'Mailing Address Line 1: Street/RFD#, P.O. Box, or URB');
      await patchFields(imported.id, imported.fields.map(unlabelled));
      const headers = { 'idempotency-key': `relabel-${dialect}-ds11` };
      const first = await relabel(imported.id, headers);
      assert.equal(first.status, 200, first.body);
      const t = first.json<Template>();
      // A tooltip shorter than a name that is already words does not replace it (DS-11: "City" on the country).
      assert.equal(labelOf(t, 'Applicant Last Name'), 'Applicant Last Name');
      assert.equal(labelOf(t, 'Applicant Address Country'), 'Applicant Address Country');
      assert.equal(labelOf(t, 'Applicant Address Street'), 'Mailing Address Line 1: Street/RFD#, P.O. Box, or URB');
      assert.deepEqual(t.fields.map((f) => f.label), imported.fields.map((f) => f.label), 'the labels the import gave, no more, no fewer');
      const replay = await relabel(imported.id, headers);
      assert.equal(replay.status, 200);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.body, first.body);
    });

    it('an unknown template, or one of another partition, is not found in the contract\'s shape', async () => {
      const missing = await relabel('tmpl_000000000000000000000000');
      assert.equal(missing.status, 404);
      assert.equal(errorOf(missing).code, 'resource_not_found');
      const mine = await upload('openoffice_form_example.pdf');
      const other = await relabel(mine.id, {}, h.actors.bTest);
      assert.equal(other.status, 404);
      assert.match(errorOf(other).message, /template/i);
    });
  });
}
