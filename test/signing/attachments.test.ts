import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { DIALECTS, type Harness } from '../harness.js';
import { sealedPdfOf } from '../evidence/support.js';
import { allBlobKeys } from '../lifecycle/purge-support.js';
import { multipart } from '../shared/multipart.js';
import { harnessWithWorker } from '../shared/worker-harness.js';
import { SIGN_HEADERS, strokePng } from './support.js';
import { AppError } from '../../src/domain/errors.js';
import { uploadAttachment } from '../../src/domain/signing/attachments/signer-attachments.js';
import { resolveSigningLink } from '../../src/domain/signing/resolve-link.js';

// Files a signer attaches (issue 41 item 5), on both dialects: an attachment field's accept and
// max_files checked at the template; on the signing page (through the signer gate) a PNG and a PDF
// taken, a hostile PDF, a JPEG the field does not accept, an oversize file and one file too many
// refused with the contract's codes; signing binds them; the sealed PDF carries them after the
// document (the image as a page, the PDF's page merged) with pdfsig's verdict valid; the audit trail
// lists each SHA-256; GET /forms/{id}/attachments/{id} serves them to the account only; the purge
// deletes their files.

const box = (y: number) => ({ page: 1, x: 72, y, width: 300, height: 40 });
const FIELDS = [
  { name: 'has_id', type: 'checkbox', label: 'I have an ID card', page: 1, x: 72, y: 80, width: 16, height: 16 },
  { name: 'documents', type: 'attachment', label: 'Proof of address', required: true, accept: ['application/pdf', 'image/png'], max_files: 2, ...box(120) },
  { name: 'id_card', type: 'attachment', label: 'ID card', accept: ['image/jpeg'], condition: { field: 'has_id', equals: true }, ...box(180) },
  { name: 'signature', type: 'signature', required: true, ...box(400), height: 50 },
];

async function pdfWith(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  page.drawText(text, { x: 72, y: 720, size: 20, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

const png = (): Buffer => Buffer.from(strokePng(300, 200).split(',')[1]!, 'base64');
/** A JPEG's first bytes and a frame header: enough to be known as one. */
const jpeg = (): Buffer => Buffer.from('ffd8ffe000104a46494600010100000100010000ffc0000b080010001001011100ffd9', 'hex');

async function upload(h: Harness, fields: unknown[]) {
  const m = multipart([{ name: 'name', value: 'Lease application' }, { name: 'fields', value: JSON.stringify(fields) }, { name: 'file', value: await pdfWith('Lease application'), filename: 'lease.pdf' }]);
  return h.request({ method: 'POST', url: '/api/v1/templates', as: h.actors.aTest, payload: m.payload, headers: m.headers });
}

type ErrorBody = { error: { code: string; param?: string; message: string } };

for (const dialect of DIALECTS) {
  describe(`attachments (${dialect})`, () => {
    const harness = harnessWithWorker(dialect);

    it('checks accept and max_files on the template', async () => {
      const h = harness();
      const cases: Array<[unknown, string, RegExp]> = [
        [{ name: 'a', type: 'attachment', accept: ['image/gif'], ...box(10) }, 'fields[0].accept', /among application\/pdf, image\/png, image\/jpeg/],
        [{ name: 'a', type: 'attachment', max_files: 11, ...box(10) }, 'fields[0].max_files', /from 1 to 10/],
        [{ name: 'a', type: 'text', max_files: 2, ...box(10) }, 'fields[0].max_files', /Only attachment fields/],
      ];
      for (const [field, param, message] of cases) {
        const res = await upload(h, [field]);
        assert.equal(res.status, 400, res.body);
        const error = res.json<ErrorBody>().error;
        assert.equal(error.param, param);
        assert.match(error.message, message);
      }
    });

    it('a reassignment takes the previous person\'s unsigned files with them: rows and blobs gone, the new link shows none; a stale link attaches nothing', async () => {
      const h = harness();
      const as = h.actors.aTest;
      const template = (await upload(h, FIELDS)).json<{ id: string }>();
      const formId = (await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: template.id } })).json<{ id: string }>().id;
      const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as, json: { recipients: [{ email: 'first@example.com', channel: 'email', name: 'First' }] } });
      const r0 = sent.json<{ recipients: Array<{ id: string; signing_url: string }> }>().recipients[0]!;
      const token = /\/sign\/([A-Za-z0-9_-]{43})$/.exec(r0.signing_url)![1]!;
      const attached = await h.app.inject({
        method: 'POST', url: `/sign/${token}/attachments?field=documents`, payload: png(),
        headers: { ...SIGN_HEADERS, 'content-type': 'application/octet-stream', 'x-formsign-filename': encodeURIComponent('first-person-payslip.png') },
      });
      assert.equal(attached.statusCode, 201, attached.body);
      const fileId = attached.json<{ id: string }>().id;
      assert.match((await h.app.inject({ url: `/sign/${token}` })).body, /first-person-payslip\.png/);
      const stale = await resolveSigningLink(h.deps.domain, token);
      assert.ok(stale);
      const changed = await h.request({ method: 'PATCH', url: `/api/v1/forms/${formId}/recipients/${r0.id}`, as, json: { email: 'second@example.com', name: 'Second' } });
      assert.equal(changed.status, 200, changed.body);
      const newToken = /\/sign\/([A-Za-z0-9_-]{43})$/.exec(changed.json<{ recipients: Array<{ signing_url: string }> }>().recipients[0]!.signing_url)![1]!;
      const page = await h.app.inject({ url: `/sign/${newToken}` });
      assert.equal(page.statusCode, 200);
      assert.doesNotMatch(page.body, /first-person-payslip/);
      assert.equal((await h.request({ url: `/api/v1/forms/${formId}/attachments/${fileId}`, as })).status, 404);
      assert.deepEqual((await h.deps.database.db.selectFrom('form_attachments').selectAll().where('form_id', '=', formId).execute()).length, 0);
      assert.deepEqual((await allBlobKeys(h)).filter((k) => k.includes(`/attachments/${formId}/`)), []);
      // The old link resolved before the change attaches nothing to the new person's slot.
      await assert.rejects(
        uploadAttachment(h.deps.domain, stale, { field: 'documents', filename: 'late.png', bytes: png() }),
        (err: unknown) => err instanceof AppError && err.code === 'link_replaced',
      );
      assert.deepEqual((await h.deps.database.db.selectFrom('form_attachments').selectAll().where('form_id', '=', formId).execute()).length, 0);
      assert.deepEqual((await allBlobKeys(h)).filter((k) => k.includes(`/attachments/${formId}/`)), []);
    });

    it('takes files on the signing page, refuses what it must, seals them after the document, lists their SHA-256, serves them to the account and purges them', async () => {
      const h = harness();
      const as = h.actors.aTest;
      const uploaded = await upload(h, FIELDS);
      assert.equal(uploaded.status, 201, uploaded.body);
      const template = uploaded.json<{ id: string; fields: Array<{ name: string; accept?: string[]; max_files?: number }> }>();
      assert.deepEqual(template.fields.find((f) => f.name === 'documents'), { ...FIELDS[1], signer: 1 }, 'accept and max_files kept');

      const prefilled = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: template.id, prefill: { documents: 'x' } } });
      assert.equal(prefilled.status, 400, 'only the signer attaches');
      const created = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: template.id } });
      assert.equal(created.status, 201, created.body);
      const formId = created.json<{ id: string }>().id;
      const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as, json: { recipients: [{ email: 'tenant@example.com', channel: 'email', name: 'Tenant' }] } });
      assert.equal(sent.status, 200, sent.body);
      const token = /\/sign\/([A-Za-z0-9_-]{43})$/.exec(sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients[0]!.signing_url)![1]!;

      const page = await h.app.inject({ url: `/sign/${token}` });
      assert.equal(page.statusCode, 200);
      assert.ok(/data-attach="field-1"/.test(page.body));
      assert.ok(/accept="application\/pdf,image\/png"/.test(page.body));
      assert.ok(/accept="image\/jpeg" capture="environment"/.test(page.body), 'a phone is offered its camera for an image field');
      assert.ok(/assets\/sign\/attachments\.[^"]*\.js/.test(page.body), 'the attachment script is loaded');

      const attach = (field: string, body: Buffer, filename: string, headers: Record<string, string> = SIGN_HEADERS) => h.app.inject({
        method: 'POST', url: `/sign/${token}/attachments?field=${field}`, payload: body,
        headers: { ...headers, 'content-type': 'application/octet-stream', 'x-formsign-filename': encodeURIComponent(filename) },
      });
      // Without the page's header (another site's form), nothing is taken.
      assert.equal((await attach('documents', png(), 'a.png', {})).statusCode, 400);

      const pngBytes = png();
      const pdfBytes = await pdfWith('Utility bill March');
      const first = await attach('documents', pngBytes, 'bill photo.png');
      assert.equal(first.statusCode, 201, first.body);
      const a1 = first.json<{ id: string; content_type: string; sha256: string; filename: string; size: number }>();
      assert.deepEqual([a1.content_type, a1.filename, a1.size, a1.sha256], ['image/png', 'bill photo.png', pngBytes.length, sha(pngBytes)]);
      assert.match(a1.id, /^att_[0-9A-Za-z]{24}$/);

      // A JPEG where only PDF and PNG are taken: 415, by its content (its name says .pdf).
      const wrongType = await attach('documents', jpeg(), 'bill.pdf');
      assert.equal(wrongType.statusCode, 415, wrongType.body);
      assert.equal(wrongType.json<ErrorBody>().error.code, 'unsupported_media_type');
      // A hostile PDF (damaged: its objects cut off) is refused by the upload inspection.
      const hostile = Buffer.concat([pdfBytes.subarray(0, 400), Buffer.from('\n%%EOF\n')]);
      const refused = await attach('documents', hostile, 'bad.pdf');
      assert.equal(refused.statusCode, 400, refused.body);
      assert.equal(refused.json<ErrorBody>().error.code, 'pdf_invalid');
      // Past 10 MiB: 413 with the files' own bound.
      const big = await attach('documents', Buffer.concat([pngBytes, Buffer.alloc(10 * 1024 * 1024)]), 'huge.png');
      assert.equal(big.statusCode, 413, big.body);
      assert.match(big.json<ErrorBody>().error.message, /10 MiB/);
      // Another signer's or an unknown field.
      assert.equal((await attach('signature', pngBytes, 'a.png')).json<ErrorBody>().error.param, 'field');

      const second = await attach('documents', pdfBytes, 'bill.pdf');
      assert.equal(second.statusCode, 201, second.body);
      const a2 = second.json<{ id: string; sha256: string }>();
      const third = await attach('documents', pngBytes, 'third.png');
      assert.equal(third.statusCode, 400, 'max_files is 2');
      assert.match(third.json<ErrorBody>().error.message, /at most 2 files/);

      // A file removed before signing is gone; the page lists what is attached.
      const extra = await attach('id_card', jpeg(), 'id.jpg');
      assert.equal(extra.statusCode, 201, extra.body);
      const listed = await h.app.inject({ url: `/sign/${token}` });
      assert.ok(/bill photo\.png/.test(listed.body));
      assert.ok(/value="bill photo\.png, bill\.pdf"/.test(listed.body));
      const removed = await h.app.inject({ method: 'DELETE', url: `/sign/${token}/attachments/${extra.json<{ id: string }>().id}`, headers: SIGN_HEADERS });
      assert.equal(removed.statusCode, 200, removed.body);
      assert.equal((await h.app.inject({ method: 'DELETE', url: `/sign/${token}/attachments/${extra.json<{ id: string }>().id}`, headers: SIGN_HEADERS })).statusCode, 404);
      // A file left in a field its condition hides (no ID card ticked) is dropped when the signer signs.
      const hidden = await attach('id_card', jpeg(), 'id-again.jpg');
      assert.equal(hidden.statusCode, 201, hidden.body);
      const hiddenId = hidden.json<{ id: string }>().id;

      // Before signing, the API does not serve a file still being chosen.
      assert.equal((await h.request({ url: `/api/v1/forms/${formId}/attachments/${a1.id}`, as })).status, 404);

      const signed = await h.app.inject({
        method: 'POST', url: `/sign/${token}`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' },
        payload: JSON.stringify({ values: { documents: 'bill photo.png, bill.pdf', signature: { image: strokePng(), method: 'drawn' } }, consent: true }),
      });
      assert.equal(signed.statusCode, 200, signed.body);
      // Signed: the link takes no more files.
      assert.equal((await attach('documents', pngBytes, 'late.png')).statusCode, 409);

      const pdf = await sealedPdfOf(h, formId);
      const form = (await h.request({ url: `/api/v1/forms/${formId}`, as })).json<{ fields: Array<{ name: string; value: unknown }> }>();
      assert.equal(form.fields.find((f) => f.name === 'documents')?.value, `${a1.id},${a2.id}`);
      assert.equal(form.fields.find((f) => f.name === 'id_card')?.value, null);
      assert.equal((await h.request({ url: `/api/v1/forms/${formId}/attachments/${hiddenId}`, as })).status, 404);
      assert.ok(!(await allBlobKeys(h)).some((k) => k.includes(hiddenId)), "the hidden field's file is deleted from the store");

      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-attach-'));
      try {
        const file = path.join(dir, 'signed.pdf');
        fs.writeFileSync(file, pdf);
        const text = (first: number, last = first) => spawnSync('pdftotext', ['-f', String(first), '-l', String(last), file, '-'], { encoding: 'utf8' }).stdout;
        assert.match(text(1), /bill photo\.png/, "the field names its files");
        assert.match(text(2), /Attachment 1 of 2: bill photo\.png/, 'the image on a page of its own after the document');
        assert.match(text(3), /Utility bill March/, "the PDF's page merged after it");
        const audit = text(4, 99);
        assert.match(audit, new RegExp(a1.sha256));
        assert.match(audit, new RegExp(a2.sha256));
        assert.match(audit, /page 2 of this document/);
        assert.equal(spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout.includes('Signature is Valid'), true, 'the seal covers the attachments');
        const images = spawnSync('pdfimages', ['-list', '-f', '2', '-l', '2', file], { encoding: 'utf8' }).stdout;
        assert.match(images, /300\s+200/, 'the PNG is drawn on page 2');
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }

      // The audit trail alone lists them too.
      const trail = await h.request({ url: `/api/v1/forms/${formId}/audit-trail`, as });
      assert.equal(trail.status, 200);

      // The API serves each file as uploaded, to this account and mode only.
      const got = await h.request({ url: `/api/v1/forms/${formId}/attachments/${a2.id}`, as });
      assert.equal(got.status, 200, got.body);
      assert.equal(got.headers['content-type'], 'application/pdf');
      assert.equal(got.headers['x-attachment-sha256'], a2.sha256);
      assert.match(String(got.headers['content-disposition']), /^attachment; filename="bill\.pdf"/);
      assert.equal(sha(got.rawPayload), a2.sha256);
      assert.equal((await h.request({ url: `/api/v1/forms/${formId}/attachments/${a1.id}`, as })).headers['content-type'], 'image/png');
      for (const other of [h.actors.bTest, h.actors.aLive]) {
        const res = await h.request({ url: `/api/v1/forms/${formId}/attachments/${a2.id}`, as: other });
        assert.equal(res.status, 404, 'another account or mode: not found');
      }
      assert.equal((await h.request({ url: `/api/v1/forms/${formId}/attachments/att_000000000000000000000000`, as })).status, 404);

      // The purge deletes the files with the rows.
      assert.ok((await allBlobKeys(h)).some((k) => k.includes(`/attachments/${formId}/`)));
      const deleted = await h.request({ method: 'DELETE', url: `/api/v1/forms/${formId}`, as });
      assert.equal(deleted.status, 200, deleted.body);
      await h.deps.worker.runDue();
      assert.deepEqual((await allBlobKeys(h)).filter((k) => k.includes(`/attachments/${formId}/`)), []);
      assert.equal((await h.request({ url: `/api/v1/forms/${formId}/attachments/${a2.id}`, as })).status, 404);
    });
  });
}

function sha(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
