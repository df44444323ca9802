import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../src/domain/errors.js';
import { MAX_SIGNATURE_BYTES, parseSignatureImage } from '../../src/domain/signing/signature-image.js';
import { checkSubmission } from '../../src/domain/signing/signing-rules.js';
import type { FieldDef } from '../../src/pdf/field.js';
import { strokePng, TINY_PNG, TWO_SIGNER_FIELDS } from './support.js';

// The pure rules of a submission: which fields a signer may send, how each is checked, and the PNG
// header check of signature images.

const png = (width: number, height: number): string => {
  const b = Buffer.from(TINY_PNG.split(',')[1]!, 'base64');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  return `data:image/png;base64,${b.toString('base64')}`;
};
const code = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof AppError, String(err));
    return `${err.code} ${err.param}`;
  }
  return 'ok';
};

describe('signature images', () => {
  it('reads the size from the PNG header and hashes the bytes', () => {
    const img = parseSignatureImage({ image: strokePng(640, 180), method: 'typed' }, 'values.s', 'signature');
    assert.deepEqual([img.width, img.height, img.method], [640, 180, 'typed']);
    assert.match(img.sha256, /^[0-9a-f]{64}$/);
  });
  it('refuses what is not a bounded PNG data URL', () => {
    assert.equal(code(() => parseSignatureImage('data:image/png;base64,AAAA', 'values.s', 'signature')), 'parameter_invalid values.s');
    assert.equal(code(() => parseSignatureImage({ image: 'data:image/jpeg;base64,AAAA', method: 'drawn' }, 'values.s', 'signature')), 'parameter_invalid values.s');
    assert.equal(code(() => parseSignatureImage({ image: `data:image/png;base64,${Buffer.from('GIF89a'.repeat(10)).toString('base64')}`, method: 'drawn' }, 'values.s', 'signature')), 'parameter_invalid values.s');
    assert.equal(code(() => parseSignatureImage({ image: png(0, 10), method: 'drawn' }, 'values.s', 'signature')), 'parameter_invalid values.s');
    assert.equal(code(() => parseSignatureImage({ image: png(5000, 10), method: 'drawn' }, 'values.s', 'signature')), 'parameter_invalid values.s');
    assert.equal(code(() => parseSignatureImage({ image: `data:image/png;base64,${'A'.repeat((MAX_SIGNATURE_BYTES / 3) * 4 + 8)}`, method: 'drawn' }, 'values.s', 'signature')), 'parameter_invalid values.s');
    assert.equal(code(() => parseSignatureImage({ image: `${TINY_PNG}!`, method: 'drawn' }, 'values.s', 'signature')), 'parameter_invalid values.s');
    assert.equal(code(() => parseSignatureImage({ image: TINY_PNG, method: 'drawn', x: 1 }, 'values.s', 'signature')), 'parameter_unknown values.s.x');
  });
  it('refuses a PNG that would not decode when sealing: a header that promises more pixels, a truncated or altered chunk', () => {
    const bytes = Buffer.from(TINY_PNG.split(',')[1]!, 'base64');
    const variants = {
      'more pixels than the data holds': png(640, 180),
      'IDAT cut short': `data:image/png;base64,${Buffer.concat([bytes.subarray(0, 45), bytes.subarray(bytes.length - 12)]).toString('base64')}`,
      'a flipped byte (CRC)': (() => { const b = Buffer.from(bytes); b[42] = (b[42]! + 1) % 256; return `data:image/png;base64,${b.toString('base64')}`; })(),
      'no IEND': `data:image/png;base64,${bytes.subarray(0, bytes.length - 12).toString('base64')}`,
    };
    for (const [what, image] of Object.entries(variants)) {
      assert.equal(code(() => parseSignatureImage({ image, method: 'drawn' }, 'values.s', 'signature')), 'parameter_invalid values.s', what);
    }
    assert.equal(code(() => parseSignatureImage({ image: TINY_PNG, method: 'drawn' }, 'values.s', 'signature')), 'ok');
  });
});

describe('a submission', () => {
  const sig = { image: TINY_PNG, method: 'drawn' };
  it('fills the signer\u2019s date_signed fields, keeps prefilled required values and stores image references', () => {
    const r = checkSubmission(TWO_SIGNER_FIELDS, 1, { tenant_signature: sig }, { tenant_name: 'Prefilled' }, '2026-05-01');
    assert.deepEqual(Object.keys(r.values).sort(), ['tenant_date', 'tenant_signature']);
    assert.equal(r.values['tenant_date'], '2026-05-01');
    assert.match(String(r.values['tenant_signature']), /^sha256:[0-9a-f]{64}$/);
    assert.deepEqual(r.images.map((i) => [i.fieldName, i.kind]), [['tenant_signature', 'signature']]);
  });
  it('checks types as prefill does and names the signing page\u2019s parameter', () => {
    const fields: FieldDef[] = [
      { name: 'n', type: 'number', required: false, signer: 1, page: 1, x: 0, y: 0, width: 10, height: 10 },
      { name: 'c', type: 'checkbox', required: true, signer: 1, page: 1, x: 0, y: 0, width: 10, height: 10 },
      { name: 'r', type: 'radio', options: ['a', 'b'], required: false, signer: 1, page: 1, x: 0, y: 0, width: 10, height: 10 },
    ];
    assert.equal(code(() => checkSubmission(fields, 1, { n: 'x', c: true }, {}, '2026-05-01')), 'parameter_invalid values.n');
    assert.equal(code(() => checkSubmission(fields, 1, { r: 'z', c: true }, {}, '2026-05-01')), 'parameter_invalid values.r');
    assert.equal(code(() => checkSubmission(fields, 1, { c: false }, {}, '2026-05-01')), 'parameter_missing values.c');
    // This slot has no signature field: its signer signs for the page the seal adds.
    assert.equal(code(() => checkSubmission(fields, 1, { n: '12.5', c: true, r: 'b' }, {}, '2026-05-01')), 'parameter_missing values._signature');
    const ok = checkSubmission(fields, 1, { n: '12.5', c: true, r: 'b', _signature: sig }, {}, '2026-05-01');
    assert.deepEqual(ok.values, { n: 12.5, c: true, r: 'b' });
    assert.deepEqual(ok.images.map((i) => [i.fieldName, i.kind]), [[null, 'signature']]);
  });
  it('refuses other signers\u2019 fields, unknown fields and a signing date', () => {
    assert.equal(code(() => checkSubmission(TWO_SIGNER_FIELDS, 2, { landlord_name: 'L', landlord_signature: sig, tenant_name: 'x' }, {}, '2026-05-01')), 'parameter_invalid values.tenant_name');
    assert.equal(code(() => checkSubmission(TWO_SIGNER_FIELDS, 2, { landlord_name: 'L', landlord_signature: sig, ghost: 1 }, {}, '2026-05-01')), 'parameter_unknown values.ghost');
    assert.equal(code(() => checkSubmission(TWO_SIGNER_FIELDS, 2, { landlord_name: 'L', landlord_signature: sig, landlord_date: '2020-01-01' }, {}, '2026-05-01')), 'parameter_invalid values.landlord_date');
    // A signer with fields has no signature of their own to send.
    assert.equal(code(() => checkSubmission(TWO_SIGNER_FIELDS, 2, { landlord_name: 'L', landlord_signature: sig, _signature: sig }, {}, '2026-05-01')), 'parameter_unknown values._signature');
  });
});

describe('errors in the field\'s own words, by the rule the page runs too', () => {
  const RENT: FieldDef = { name: 'monthly_rent', type: 'number', label: 'monthly rent', required: true, signer: 1, page: 1, x: 10, y: 10, width: 100, height: 20 };
  const MAIL: FieldDef = { name: 'topmostSubform[0].f1_10[0]', type: 'email', label: 'Your e-mail address', required: false, signer: 1, page: 1, x: 10, y: 40, width: 100, height: 20 };
  const NOTE: FieldDef = { name: 'note', type: 'text', required: false, signer: 1, page: 1, x: 10, y: 70, width: 100, height: 20 };
  const SIG: FieldDef = { name: 'sig', type: 'signature', required: false, signer: 1, page: 1, x: 10, y: 100, width: 100, height: 20 };
  const message = (values: Record<string, unknown>): string => {
    try {
      checkSubmission([RENT, MAIL, NOTE, SIG], 1, values, {}, '2026-01-01');
    } catch (err) {
      assert.ok(err instanceof AppError);
      return `${err.status} ${err.param} ${err.message}`;
    }
    return 'ok';
  };
  it('names the field by its label, capitalised, never values.<raw name>', () => {
    assert.equal(message({ monthly_rent: 'lots' }), '400 values.monthly_rent Monthly rent must be a number.');
    assert.equal(message({ monthly_rent: '950', 'topmostSubform[0].f1_10[0]': 'ada@' }), '400 values.topmostSubform[0].f1_10[0] Your e-mail address must be an e-mail address.');
    assert.equal(message({}), '400 values.monthly_rent Monthly rent is required: fill it in.');
    assert.equal(message({ monthly_rent: '950.50' }), 'ok');
  });
  it('a signing-page value obeys the prefill limit of 10,000 characters (the name when no label)', () => {
    assert.equal(message({ monthly_rent: '1', note: 'x'.repeat(10_000) }), 'ok');
    assert.equal(message({ monthly_rent: '1', note: 'x'.repeat(10_001) }), '400 values.note Note is longer than 10,000 characters.');
  });
});
