import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { Harness } from '../harness.js';
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
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const form = (await h.request({ url: `/api/v1/forms/${f.formId}`, as })).json<{ status: string }>();
    if (form.status === 'signed') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const res = await h.request({ url: `/api/v1/forms/${f.formId}/signed-pdf?format=base64`, as });
  assert.equal(res.status, 200, `sealed within 90 s: ${res.body}`);
  return { formId: f.formId, pdf: Buffer.from(res.json<{ data: string }>().data, 'base64') };
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

/** `formsign ARGS` run from the sources (tsx) against `dataDir`, as an operator runs it offline. */
export function formsignCli(args: string[], dataDir: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}
