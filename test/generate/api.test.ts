import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PDFDocument, PDFHexString, PDFName, PDFString } from '@cantoo/pdf-lib';
import { generateForm } from '../../src/domain/generate/generate-form.js';
import { AppError } from '../../src/domain/errors.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { acroFieldNames, pdfText, qpdfCheck } from './support.js';

// POST /api/v1/forms/generate through the API on both stores: the form, its own PDF (a real
// AcroForm that qpdf accepts), the form.created event, prefill and its header, save_as_template,
// and the refusals.

interface FormBody {
  id: string; template_id: string | null; name: string; generator: string; status: string; signers: Array<{ slot: number; role: string }>;
  fields: Array<{ name: string; type: string; label: string; required: boolean; signer: number; options?: string[]; description?: string; value: unknown; page: number; width: number }>;
}

for (const dialect of DIALECTS) {
  describe(`POST /api/v1/forms/generate (${dialect})`, () => {
    let h: Harness;
    before(async () => { h = await createHarness(dialect); });
    after(async () => { await h.close(); });

    const generate = (json: unknown) => h.request({ method: 'POST', url: '/api/v1/forms/generate', as: h.actors.aTest, json });

    it('makes a draft form with generated fields, its own AcroForm PDF and form.created', async () => {
      const res = await generate({
        prompt: 'Rental application: applicant name, email, phone, move-in date, monthly income, do you have pets (yes or no), I agree to a credit check. Tenant signature.',
        prefill: { applicant_name: 'Ada Lovelace', monthly_income: 4200, unknown_key: 'x' },
        metadata: { source: 'test' },
      });
      assert.equal(res.status, 201, res.body);
      const form = res.json<FormBody>();
      assert.equal(form.template_id, null);
      assert.equal(form.generator, 'builtin');
      assert.equal(form.status, 'draft');
      assert.equal(form.name, 'Rental application');
      const byName = new Map(form.fields.map((f) => [f.name, f]));
      assert.deepEqual(form.fields.map((f) => f.name), ['applicant_name', 'email', 'phone', 'move_in_date', 'monthly_income', 'do_you_have_pets', 'agree_credit_check', 'tenant_signature']);
      assert.equal(byName.get('email')?.type, 'email');
      assert.equal(byName.get('move_in_date')?.type, 'date');
      assert.equal(byName.get('monthly_income')?.type, 'number');
      assert.deepEqual(byName.get('do_you_have_pets')?.options, ['Yes', 'No']);
      assert.equal(byName.get('agree_credit_check')?.type, 'checkbox');
      assert.equal(byName.get('tenant_signature')?.type, 'signature');
      assert.equal(byName.get('applicant_name')?.value, 'Ada Lovelace');
      assert.equal(byName.get('monthly_income')?.value, 4200);
      assert.ok(form.fields.every((f) => f.page === 1 && f.width > 0));
      assert.equal(res.headers['x-service-prefill-unmatched'], 'unknown_key');

      const got = await h.request({ url: `/api/v1/forms/${form.id}`, as: h.actors.aTest });
      assert.equal(got.status, 200);
      assert.deepEqual(got.json<FormBody>().fields.map((f) => f.name), form.fields.map((f) => f.name));
      const events = await h.request({ url: `/api/v1/forms/${form.id}/events`, as: h.actors.aTest });
      assert.deepEqual(events.json<{ data: Array<{ type: string }> }>().data.map((e) => e.type), ['form.created']);

      const pdf = await h.request({ url: `/api/v1/forms/${form.id}/pdf`, as: h.actors.aTest });
      assert.equal(pdf.status, 200);
      const check = qpdfCheck(pdf.rawPayload);
      assert.ok(check.ok, check.output);
      const names = await acroFieldNames(pdf.rawPayload);
      for (const f of form.fields) assert.ok(names.includes(f.name), `AcroForm field ${f.name} in ${names.join(', ')}`);
      const text = pdfText(pdf.rawPayload);
      assert.match(text, /Rental application/);
      assert.match(text, /Ada Lovelace/, 'the prefilled value is drawn');
    });

    it('saves the generated document as a template when asked', async () => {
      const res = await generate({ prompt: 'Contact form with name, e-mail, telephone and message', save_as_template: true, page_size: 'a4', name: 'Contact us' });
      assert.equal(res.status, 201, res.body);
      const form = res.json<FormBody>();
      assert.match(form.template_id ?? '', /^tmpl_/);
      assert.equal(form.generator, 'builtin');
      assert.equal(form.name, 'Contact us');
      const t = await h.request({ url: `/api/v1/templates/${form.template_id}`, as: h.actors.aTest });
      assert.equal(t.status, 200, t.body);
      const tmpl = t.json<{ name: string; fields: Array<{ name: string; type: string }> }>();
      assert.equal(tmpl.name, 'Contact us');
      assert.deepEqual(tmpl.fields.map((f) => [f.name, f.type]), [['name', 'text'], ['e_mail', 'email'], ['telephone', 'phone'], ['message', 'text'], ['signature', 'signature']]);
      // A second form from the saved template works like any template's.
      const again = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: form.template_id, prefill: { name: 'Grace' } } });
      assert.equal(again.status, 201, again.body);
    });

    it('keeps Spanish labels and localises the choices it adds', async () => {
      const res = await generate({ prompt: 'Registro: nombre, correo electrónico, ¿asistirá a la cena? (sí o no), firma del invitado' });
      assert.equal(res.status, 201, res.body);
      const fields = res.json<FormBody>().fields;
      assert.deepEqual(fields.map((f) => f.type), ['text', 'email', 'radio', 'signature']);
      assert.equal(fields[1]!.label, 'Correo electrónico');
      assert.deepEqual(fields[2]!.options, ['Sí', 'No']);
    });

    it('refuses empty, blank, over-long and fieldless descriptions and wrong prefill values', async () => {
      for (const prompt of ['', '   \n\t ', 'x'.repeat(4001)]) {
        const res = await generate({ prompt });
        assert.equal(res.status, 400, `${prompt.length} chars`);
        const err = res.json<{ error: { code: string; param: string } }>().error;
        assert.equal(err.code, 'parameter_invalid');
        assert.equal(err.param, 'prompt');
      }
      const hello = await generate({ prompt: 'hello' });
      assert.equal(hello.status, 400);
      const err = hello.json<{ error: { code: string; message: string; param: string } }>().error;
      assert.equal(err.code, 'parameter_invalid');
      assert.match(err.message, /for example: "Job application: full name, email/);
      const badPrefill = await generate({ prompt: 'name, email, date of birth', prefill: { date_of_birth: 'not a date' } });
      assert.equal(badPrefill.status, 400, badPrefill.body);
      assert.equal(badPrefill.json<{ error: { param: string } }>().error.param, 'prefill.date_of_birth');
      const unknown = await generate({ prompt: 'name', colour: 'red' });
      assert.equal(unknown.status, 400);
    });

    it('refuses a language that is not a BCP 47 tag (it is written into the PDF) and keeps a good one', async () => {
      const prompt = 'Contact form with name and email';
      for (const language of ['en)/OpenAction 3 0 R/X(', 'en us', 'e', 'en_US', 'en-', 'en-toolongsubtag', 'fr\\', '<en>']) {
        const res = await generate({ prompt, language });
        assert.equal(res.status, 400, `${language}: ${res.body}`);
        const err = res.json<{ error: { type: string; code: string; param: string } }>().error;
        assert.equal(err.code, 'parameter_invalid', language);
        assert.equal(err.param, 'language', language);
        // The domain refuses it as well, for callers that do not come through the schema.
        await assert.rejects(generateForm(h.deps.domain, h.actors.aTest.partition, { prompt, language }),
          (e: unknown) => e instanceof AppError && e.code === 'parameter_invalid' && e.param === 'language');
      }
      const ok = await generate({ prompt, language: 'pt-BR' });
      assert.equal(ok.status, 201, ok.body);
      const pdf = await h.request({ url: `/api/v1/forms/${ok.json<FormBody>().id}/pdf`, as: h.actors.aTest });
      const doc = await PDFDocument.load(pdf.rawPayload);
      const lang = doc.catalog.lookup(PDFName.of('Lang'));
      assert.ok(lang instanceof PDFHexString || lang instanceof PDFString, String(lang));
      assert.equal(lang.decodeText(), 'pt-BR');
      assert.equal(doc.catalog.get(PDFName.of('OpenAction')), undefined);
    });

    it('checks the layout\'s fields as a template import would, and stores nothing when they are wrong', async () => {
      const real = h.deps.domain.generate;
      const broken = (mutate: (f: Record<string, unknown>) => void) => ({
        ...h.deps.domain,
        generate: {
          ...real,
          layout: async (...args: Parameters<typeof real.layout>) => {
            const out = await real.layout(...args);
            const fields = out.fields.map((f) => ({ ...f }));
            mutate(fields[0] as unknown as Record<string, unknown>);
            return { ...out, fields };
          },
        },
      });
      const before = await h.request({ url: '/api/v1/forms?limit=100', as: h.actors.aTest });
      const count = (r: typeof before) => r.json<{ data: unknown[] }>().data.length;
      for (const mutate of [(f: Record<string, unknown>) => { f['page'] = 9; }, (f: Record<string, unknown>) => { f['width'] = -1; }]) {
        await assert.rejects(generateForm(broken(mutate), h.actors.aTest.partition, { prompt: 'Contact form with name and email' }),
          (e: unknown) => e instanceof Error && !(e instanceof AppError) && /invalid fields/.test(e.message));
      }
      const afterList = await h.request({ url: '/api/v1/forms?limit=100', as: h.actors.aTest });
      assert.equal(count(afterList), count(before), 'no form row is stored');
    });

    it('draws description text only as text and refuses more than 100 fields, naming the limit', async () => {
      const hostile = 'Form: name ) Tj ET /JavaScript (app.alert(1)) <script>alert(1)</script>, email';
      const res = await generate({ prompt: hostile });
      assert.equal(res.status, 201, res.body);
      const form = res.json<FormBody>();
      const pdf = await h.request({ url: `/api/v1/forms/${form.id}/pdf`, as: h.actors.aTest });
      assert.ok(qpdfCheck(pdf.rawPayload).ok);
      assert.doesNotMatch(pdf.rawPayload.toString('latin1'), /\/JavaScript|\/JS\s|\/OpenAction/);
      const many = Array.from({ length: 130 }, (_, i) => `item ${i + 1} name`).join(', ');
      const big = await generate({ prompt: many });
      assert.equal(big.status, 400, big.body);
      const err = big.json<{ error: { type: string; code: string; message: string; param: string } }>().error;
      assert.deepEqual([err.type, err.code, err.param], ['invalid_request_error', 'parameter_invalid', 'prompt']);
      assert.match(err.message, /asks for 130 fields; a generated form has at most 100/);
    });

    it('lists the signers with their roles, every party with its own signature block', async () => {
      const res = await generate({ prompt: 'Hi Sam,\n\nCould you set up a lease for us? Property address, monthly rent, start date. The tenant, landlord and guarantor all sign and date.\n\nThanks,\nRachel' });
      assert.equal(res.status, 201, res.body);
      const form = res.json<FormBody>();
      assert.deepEqual(form.signers, [{ slot: 1, role: 'Tenant' }, { slot: 2, role: 'Landlord' }, { slot: 3, role: 'Guarantor' }]);
      assert.deepEqual(form.fields.filter((f) => f.type === 'signature').map((f) => `${f.label}@${f.signer}`), ['Tenant signature@1', 'Landlord signature@2', 'Guarantor signature@3']);
      assert.deepEqual(form.fields.filter((f) => f.type === 'date_signed').map((f) => f.signer), [1, 2, 3]);
      assert.ok(!form.fields.some((f) => /thanks|rachel|sam/i.test(f.label)), JSON.stringify(form.fields.map((f) => f.label)));
      // A form whose description names no signer still gets one signature.
      const plain = await generate({ prompt: 'Ficha: nome completo, data de nascimento, telemóvel' });
      assert.equal(plain.status, 201, plain.body);
      assert.deepEqual(plain.json<FormBody>().fields.map((f) => f.type), ['text', 'date', 'phone', 'signature']);
      assert.deepEqual(plain.json<FormBody>().signers, [{ slot: 1, role: 'Signatário' }]);
    });

    it('gives a conditional field its condition as the Field\'s description, on the form and on a saved template', async () => {
      const prompt = 'Tenancy application: applicant name, monthly income. If applicable, the co-signer\'s name and phone number. The applicant signs; the co-signer signs too if there is one.';
      const res = await generate({ prompt, save_as_template: true });
      assert.equal(res.status, 201, res.body);
      const form = res.json<FormBody>();
      const described = form.fields.filter((f) => f.description !== undefined).map((f) => [f.label, f.required, f.description]);
      assert.deepEqual(described, [
        ['Co-signer\'s name', false, 'If applicable'],
        ['Co-signer phone number', false, 'If applicable'],
        ['Co-signer signature', false, 'If there is one'],
      ]);
      assert.equal(form.fields.find((f) => f.label === 'Applicant name')?.description, undefined, 'an unconditional field has no description');
      const t = await h.request({ url: `/api/v1/templates/${form.template_id}`, as: h.actors.aTest });
      const fields = t.json<{ fields: Array<{ name: string; description?: string }> }>().fields;
      assert.deepEqual(fields.filter((f) => f.description).map((f) => f.description), ['If applicable', 'If applicable', 'If there is one']);
      // The description is the contract's optional Field property: a template update keeps it and checks it.
      const edited = fields.map((f, i) => (i === 0 ? { ...f, description: 'As on your passport' } : f));
      const put = await h.request({ method: 'PATCH', url: `/api/v1/templates/${form.template_id}`, as: h.actors.aTest, json: { fields: edited } });
      assert.equal(put.status, 200, put.body);
      assert.equal(put.json<{ fields: Array<{ description?: string }> }>().fields[0]!.description, 'As on your passport');
      const bad = await h.request({ method: 'PATCH', url: `/api/v1/templates/${form.template_id}`, as: h.actors.aTest, json: { fields: fields.map((f, i) => (i === 0 ? { ...f, description: 'x'.repeat(501) } : f)) } });
      assert.equal(bad.status, 400, bad.body);
      assert.deepEqual([bad.json<{ error: { code: string; param: string } }>().error.code, bad.json<{ error: { code: string; param: string } }>().error.param], ['parameter_invalid', 'fields[0].description']);
    });

    it('refuses a language it does not read with 400 language_unsupported naming the supported ones', async () => {
      for (const [body, param] of [
        [{ prompt: '氏名、メールアドレス、電話番号、署名' }, 'prompt'],
        [{ prompt: 'الاسم، البريد الإلكتروني، التوقيع' }, 'prompt'],
        [{ prompt: 'Contact form with name and email', language: 'ja' }, 'language'],
        [{ prompt: 'Contact form with name and email', language: 'nl-BE' }, 'language'],
      ] as const) {
        const res = await generate(body);
        assert.equal(res.status, 400, res.body);
        const err = res.json<{ error: { type: string; code: string; message: string; param: string; request_id: string } }>().error;
        assert.deepEqual([err.type, err.code, err.param], ['invalid_request_error', 'language_unsupported', param], res.body);
        assert.match(err.message, /not supported.*en, es, fr, de, it, pt/);
        assert.ok(err.request_id);
      }
      // Issue 44: a Latin-script description in a language the generator does not read is refused too, naming it.
      for (const [prompt, name] of [
        ['Huurovereenkomst: naam van de huurder, adres van de woning, maandelijkse huur, borg en ingangsdatum. Huurder en verhuurder ondertekenen allebei met datum.', /Dutch/],
        ['Umowa najmu: imię i nazwisko najemcy, adres mieszkania, wysokość czynszu, kaucja, data rozpoczęcia. Podpisują najemca i wynajmujący.', /Polish/],
      ] as const) {
        const res = await generate({ prompt });
        assert.equal(res.status, 400, res.body);
        const err = res.json<{ error: { code: string; message: string; param: string } }>().error;
        assert.deepEqual([err.code, err.param], ['language_unsupported', 'prompt'], res.body);
        assert.match(err.message, name);
      }
      const it = await generate({ prompt: 'Modulo: nome, email. Firma il cliente.', language: 'it' });
      assert.equal(it.status, 201, it.body);
      assert.deepEqual(it.json<FormBody>().signers, [{ slot: 1, role: 'Cliente' }]);
    });
  });
}
