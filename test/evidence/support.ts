import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { Harness } from '../harness.js';
import { nodeEntry } from '../shared/node-entry.js';
import { SIGN_HEADERS, sendTo, strokePng, twoSignerTemplate } from '../signing/support.js';

// Sealed PDFs for the evidence tests, made the product's way (two signers sign on their links, the
// job worker seals), and the changes a verifier must notice.

export interface SealedForm { formId: string; pdf: Buffer }

/** A two-signer form signed by both and sealed by the worker (the harness's worker must run). */
export async function sealedTwoSignerForm(h: Harness, client: { ip?: string; tzOffset?: number[] } = {}): Promise<SealedForm> {
  const as = h.actors.aTest;
  const templateId = await twoSignerTemplate(h, as.partition);
  const f = await sendTo(h, as, templateId, ['tenant@example.com', 'landlord@example.com']);
  const values = [
    { tenant_name: 'Ada Lovelace', tenant_signature: { image: strokePng(), method: 'drawn' } },
    { landlord_name: 'Charles Babbage', landlord_signature: { image: strokePng(160, 50), method: 'typed' } },
  ];
  for (const [i, token] of f.tokens.entries()) {
    const tz = client.tzOffset?.[i];
    const res = await h.app.inject({
      method: 'POST', url: `/sign/${token}`,
      headers: { ...SIGN_HEADERS, 'content-type': 'application/json', 'user-agent': 'EvidenceTest/1.0' },
      payload: JSON.stringify({ values: values[i], consent: true, ...(tz === undefined ? {} : { utc_offset_minutes: tz }) }),
      ...(client.ip ? { remoteAddress: client.ip } : {}),
    });
    assert.equal(res.statusCode, 200, res.body);
  }
  return { formId: f.formId, pdf: await sealedPdfOf(h, f.formId) };
}

/** The signed PDF of a form once the worker has sealed it (within 90 s). */
export async function sealedPdfOf(h: Harness, formId: string): Promise<Buffer> {
  const as = h.actors.aTest;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const form = (await h.request({ url: `/api/v1/forms/${formId}`, as })).json<{ status: string }>();
    if (form.status === 'signed') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const res = await h.request({ url: `/api/v1/forms/${formId}/signed-pdf?format=base64`, as });
  assert.equal(res.status, 200, `sealed within 90 s: ${res.body}`);
  return Buffer.from(res.json<{ data: string }>().data, 'base64');
}

/** One byte changed inside the signed range: the information dictionary's /Producer key renamed. */
export function flipSignedByte(pdf: Buffer): Buffer {
  const copy = Buffer.from(pdf);
  const at = copy.lastIndexOf('/Producer');
  assert.ok(at > 0, 'the sealed PDF names its producer');
  const range = /\/ByteRange\s*\[\s*0\s+(\d+)\s+(\d+)/.exec(copy.toString('latin1'));
  assert.ok(range && (at < Number(range[1]) || at >= Number(range[2])), 'the byte is inside the signed range');
  copy[at + '/Producer'.length - 1] = 'x'.charCodeAt(0);
  return copy;
}

/** An incremental update appended after the seal: the information dictionary's /Title replaced. */
export function appendTitleUpdate(pdf: Buffer, title = 'Changed after signing'): Buffer {
  const text = pdf.toString('latin1');
  const root = /\/Root\s+(\d+\s+\d+\s+R)/.exec(text.slice(text.lastIndexOf('trailer')))?.[1];
  const info = /\/Info\s+(\d+)\s+(\d+)\s+R/.exec(text.slice(text.lastIndexOf('trailer')));
  const prev = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)?.[1];
  const size = /\/Size\s+(\d+)/.exec(text.slice(text.lastIndexOf('trailer')))?.[1];
  assert.ok(root && info && prev && size, 'a classic trailer');
  const objectAt = pdf.length + 1;
  const object = `\n${info[1]} ${info[2]} obj\n<< /Title (${title}) /Producer (Someone else) >>\nendobj\n`;
  const xrefAt = pdf.length + Buffer.byteLength(object, 'latin1');
  const xref = `xref\n${info[1]} 1\n${String(objectAt).padStart(10, '0')} 00000 n \ntrailer\n<< /Size ${size} /Root ${root} /Info ${info[1]} ${info[2]} R /Prev ${prev} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.concat([pdf, Buffer.from(object + xref, 'latin1')]);
}

/** A PDF of one empty page and `count` small objects besides (a stress for parsers). */
export function manyObjectsPdf(count: number): Buffer {
  const parts = ['%PDF-1.7\n', '1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n', '2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n',
    '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n'];
  for (let i = 0; i < count; i++) parts.push(`${i + 4} 0 obj\n<< /N ${i} >>\nendobj\n`);
  parts.push(`trailer\n<< /Size ${count + 4} /Root 1 0 R >>\nstartxref\n0\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}

/** A PDF sealed directly with the harness's own certificate (no form needed), as `form_id` says. */
export async function sealedWithServiceCertificate(h: Harness, formId = 'form_VerifyPageTest0000000001'): Promise<Buffer> {
  const { makeSampleTemplatePdf, sealPdf } = await import('../../src/pdf/index.js');
  const { createHash } = await import('node:crypto');
  const sample = await makeSampleTemplatePdf();
  const filledSha256 = createHash('sha256').update(sample.pdf).digest('hex');
  const pdf = await sealPdf({
    document: sample.pdf, fields: sample.fields, marks: [], dates: {}, extraSigners: [], signingTime: new Date(),
    audit: { formId, formName: 'Sample agreement', documentId: `${formId}-signed`, templateSha256: null, filledSha256, recipients: [] },
  }, h.deps.domain.signingCertificate);
  return Buffer.from(pdf);
}

/** `formsign ARGS` against `dataDir`, as an operator runs it offline (compiled under the runner: test/shared/node-entry.ts). */
export function formsignCli(args: string[], dataDir: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, nodeEntry('src/main.ts', ...args), { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

/** Where the mixed-direction table's values are, in PDF points from the page's top left. */
export interface MixedDirectionBox { name: string; text: string; drawn: 'appearance' | 'flat'; x: number; y: number; width: number; height: number }

/**
 * A form whose one signer typed every string of the mixed-direction table twice, into an AcroForm
 * text field (an appearance stream, flattened by the seal) and into a field drawn on a flat page, and
 * signed it; the worker sealed it. The signer's name is Arabic with a Latin part (the audit page's caption).
 */
export async function sealedMixedDirectionForm(h: Harness): Promise<SealedForm & { boxes: MixedDirectionBox[] }> {
  const { PDFDocument } = await import('@cantoo/pdf-lib');
  const { MIXED_DIRECTION } = await import('../shared/mixed-direction.js');
  const { multipart } = await import('../shared/multipart.js');
  const as = h.actors.aTest;
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const form = doc.getForm();
  const boxes: MixedDirectionBox[] = [];
  MIXED_DIRECTION.forEach((c, i) => {
    const y = 40 + i * 34;
    boxes.push({ name: `acro_${i}`, text: c.text, drawn: 'appearance', x: 30, y, width: 270, height: 24 });
    boxes.push({ name: `flat_${i}`, text: c.text, drawn: 'flat', x: 320, y, width: 270, height: 24 });
    form.createTextField(`acro_${i}`).addToPage(page, { x: 30, y: 792 - y - 24, width: 270, height: 24, borderWidth: 0 });
  });
  const fields = [
    ...boxes.map((b) => ({ name: b.name, type: 'text', page: 1, x: b.x, y: b.y, width: b.width, height: b.height, signer: 1 })),
    { name: 'signature', type: 'signature', page: 1, x: 30, y: 700, width: 200, height: 50, signer: 1, required: true },
  ];
  const m = multipart([{ name: 'name', value: 'عقد (Contract) 2026' }, { name: 'fields', value: JSON.stringify(fields) }, { name: 'file', value: Buffer.from(await doc.save()), filename: 'rtl.pdf' }]);
  const uploaded = await h.request({ method: 'POST', url: '/api/v1/templates', as, payload: m.payload, headers: m.headers });
  assert.equal(uploaded.status, 201, uploaded.body);
  const created = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: uploaded.json<{ id: string }>().id } });
  assert.equal(created.status, 201, created.body);
  const formId = created.json<{ id: string }>().id;
  const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as, json: { recipients: [{ email: 'sara@example.com', channel: 'email', name: 'سارة العلي (Sara Ali) 2' }] } });
  assert.equal(sent.status, 200, sent.body);
  const token = /\/sign\/([A-Za-z0-9_-]{43})$/.exec(sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients[0]!.signing_url)?.[1];
  assert.ok(token);
  const values: Record<string, unknown> = Object.fromEntries(boxes.map((b) => [b.name, b.text]));
  values.signature = { image: strokePng(), method: 'drawn' };
  const signed = await h.app.inject({
    method: 'POST', url: `/sign/${token}`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: JSON.stringify({ values, consent: true }),
  });
  assert.equal(signed.statusCode, 200, signed.body);
  return { formId, pdf: await sealedPdfOf(h, formId), boxes };
}
