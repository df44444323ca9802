import assert from 'node:assert/strict';
import { crc32, deflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts, rgb } from '@cantoo/pdf-lib';
import { insertTemplate } from '../../src/db/repositories/templates.js';
import { newId } from '../../src/lib/ids.js';
import type { Partition } from '../../src/lib/partition.js';
import { makeSampleTemplatePdf, type FieldDef } from '../../src/pdf/index.js';
import type { Actor, Harness } from '../harness.js';

// Templates, forms and sends for the signing tests, through the API where the API can do it.

/** Two signers on a flat one-page PDF: each has a name, a signature and a date_signed field; signer 1 also initials. */
export const TWO_SIGNER_FIELDS: FieldDef[] = [
  { name: 'tenant_name', type: 'text', label: 'Tenant name', required: true, signer: 1, page: 1, x: 72, y: 200, width: 220, height: 22 },
  { name: 'tenant_signature', type: 'signature', label: 'Tenant signature', required: true, signer: 1, page: 1, x: 72, y: 240, width: 220, height: 50 },
  { name: 'tenant_initials', type: 'initials', label: 'Tenant initials', required: false, signer: 1, page: 1, x: 310, y: 240, width: 60, height: 50 },
  { name: 'tenant_date', type: 'date_signed', label: 'Date', required: false, signer: 1, page: 1, x: 400, y: 260, width: 120, height: 22 },
  { name: 'landlord_name', type: 'text', label: 'Landlord name', required: true, signer: 2, page: 1, x: 72, y: 360, width: 220, height: 22 },
  { name: 'landlord_signature', type: 'signature', label: 'Landlord signature', required: true, signer: 2, page: 1, x: 72, y: 400, width: 220, height: 50 },
  { name: 'landlord_date', type: 'date_signed', label: 'Date', required: false, signer: 2, page: 1, x: 400, y: 420, width: 120, height: 22 },
];

async function flatPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  page.drawText('Residential lease', { x: 72, y: 700, size: 22, font: bold });
  page.drawText('The tenant and the landlord agree to the terms of this lease.', { x: 72, y: 660, size: 12, font, color: rgb(0.2, 0.2, 0.2) });
  page.drawText('Tenant', { x: 72, y: 612, size: 12, font: bold });
  page.drawText('Landlord', { x: 72, y: 452, size: 12, font: bold });
  return doc.save();
}

async function storeTemplate(h: Harness, p: Partition, name: string, pdf: Uint8Array, fields: FieldDef[], signerCount: number): Promise<string> {
  const id = newId('template');
  const pdfKey = `${p.accountId}/${p.mode}/templates/${id}.pdf`;
  await h.deps.domain.blobs.put(pdfKey, pdf, 'application/pdf');
  const now = new Date().toISOString();
  await h.deps.database.transact((trx) => insertTemplate(trx, p, {
    id, name, page_count: 1, fields: JSON.stringify(fields), signer_count: signerCount, warnings: '[]', pdf_key: pdfKey, pdf_sha256: '0'.repeat(64), created_at: now, updated_at: now,
  }));
  return id;
}

export async function twoSignerTemplate(h: Harness, p: Partition): Promise<string> {
  return storeTemplate(h, p, 'Residential lease', await flatPdf(), TWO_SIGNER_FIELDS, 2);
}

export async function sampleTemplate(h: Harness, p: Partition): Promise<string> {
  const sample = await makeSampleTemplatePdf();
  return storeTemplate(h, p, 'Sample agreement', sample.pdf, sample.fields, 1);
}

export interface SentForm {
  formId: string;
  /** Signing tokens in recipient order. */
  tokens: string[];
  recipientIds: string[];
}

/** Creates a form from the template and sends it to `recipients` e-mail addresses; returns the tokens from the API's signing links. */
export async function sendTo(h: Harness, as: Actor, templateId: string, emails: string[], prefill: Record<string, unknown> = {}): Promise<SentForm> {
  const created = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId, prefill } });
  assert.equal(created.status, 201, created.body);
  const formId = created.json<{ id: string }>().id;
  const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as, json: { recipients: emails.map((email, i) => ({ email, channel: 'email', name: `Signer ${i + 1}` })) } });
  assert.equal(sent.status, 200, sent.body);
  const recipients = sent.json<{ recipients: Array<{ id: string; signing_url: string }> }>().recipients;
  return {
    formId,
    recipientIds: recipients.map((r) => r.id),
    tokens: recipients.map((r) => {
      const token = /\/sign\/([A-Za-z0-9_-]{43})$/.exec(r.signing_url)?.[1];
      assert.ok(token, r.signing_url);
      return token;
    }),
  };
}

/** A small real PNG (a 2×1 image), as the page would submit it. */
export const TINY_PNG = `data:image/png;base64,${Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000002000000010806000000f4227f8a0000001149444154789c6310918bfa2f2217d500000a70029802a1f54c0000000049454e44ae426082',
  'hex',
).toString('base64')}`;

export const SIGN_HEADERS = { 'x-formsign-signing': '1' };

/** A real RGBA PNG of any size (what a canvas gives): a dark diagonal stroke on transparency. */
export function strokePng(width = 120, height = 40): string {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 4);
    for (let x = 0; x < width; x++) if (Math.abs((x * height) / width - y) < 2) row.set([20, 30, 90, 255], 1 + x * 4);
    rows.push(row);
  }
  return `data:image/png;base64,${pngOf(width, height, 6, rows).toString('base64')}`;
}

/** A PNG of 8-bit `rows` (each with its filter byte) of colour type `colourType` (2 RGB, 6 RGBA). */
export function pngOf(width: number, height: number, colourType: 2 | 6, rows: Buffer[]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, colourType, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * A decompression bomb: a PNG of `width`×`height` pixels whose image data is `zeroBytes` of zeros
 * deflated (about a thousandth of that on the wire), far past what the declared pixels need.
 */
export function bombPng(width: number, height: number, zeroBytes: number): Buffer {
  const good = Buffer.from(strokePng(width, height).split(',')[1]!, 'base64');
  const idatAt = good.indexOf('IDAT') - 4;
  const data = deflateSync(Buffer.alloc(zeroBytes));
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write('IDAT', 4, 'latin1');
  return Buffer.concat([good.subarray(0, idatAt), head, data, Buffer.alloc(4), Buffer.from('0000000049454e44ae426082', 'hex')]);
}

/** One signer with two signature and two initials fields (issue 43 item 7: "use for every field of mine"). */
export const ADOPT_FIELDS: FieldDef[] = [
  { name: 'full_name', type: 'text', label: 'Full name', required: true, signer: 1, page: 1, x: 72, y: 160, width: 220, height: 22 },
  { name: 'signature_a', type: 'signature', label: 'Signature on the lease', required: true, signer: 1, page: 1, x: 72, y: 240, width: 220, height: 50 },
  { name: 'initials_a', type: 'initials', label: 'Initials on the lease', required: true, signer: 1, page: 1, x: 310, y: 240, width: 80, height: 50 },
  { name: 'signature_b', type: 'signature', label: 'Signature on the inventory', required: true, signer: 1, page: 1, x: 72, y: 400, width: 220, height: 50 },
  { name: 'initials_b', type: 'initials', label: 'Initials on the inventory', required: true, signer: 1, page: 1, x: 310, y: 400, width: 80, height: 50 },
];

export async function adoptTemplate(h: Harness, p: Partition): Promise<string> {
  return storeTemplate(h, p, 'Lease and inventory', await flatPdf(), ADOPT_FIELDS, 1);
}

/** An RGB PNG of noise in light greys (a grainy photo of paper): its cleared background keeps partial alpha everywhere. */
export function noisyPhotoPng(width = 1200, height = 600): Buffer {
  let seed = 11;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let i = 1; i < row.length; i++) {
      seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5;
      row[i] = 150 + ((seed >>> 0) % 66);
    }
    rows.push(row);
  }
  return pngOf(width, height, 2, rows);
}

/** An RGB PNG (a scan or photo of a signature): a white page with a dark wavy stroke. */
export function scannedSignaturePng(width = 400, height = 160): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3, 0xfa);
    row[0] = 0;
    for (let x = 0; x < width; x++) if (Math.abs(height / 2 + Math.sin(x / 20) * height / 4 - y) < 4) row.set([25, 30, 80], 1 + x * 3);
    rows.push(row);
  }
  return pngOf(width, height, 2, rows);
}
