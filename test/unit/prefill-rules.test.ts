import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../src/domain/errors.js';
import { checkPrefill, isCalendarDate } from '../../src/domain/forms/prefill-rules.js';
import { fieldSet } from '../../src/domain/templates/field-set.js';
import type { FieldDef } from '../../src/pdf/field.js';

const f = (name: string, type: FieldDef['type'], extra: Partial<FieldDef> = {}): FieldDef => ({ name, type, required: false, signer: 1, page: 1, x: 0, y: 0, width: 10, height: 10, ...extra });
const FIELDS = fieldSet(JSON.stringify([
  f('name', 'text', { max_length: 5 }), f('n', 'number'), f('d', 'date'), f('e', 'email'), f('p', 'phone'), f('c', 'checkbox'),
  f('r', 'radio', { options: ['Yes', 'No'] }), f('s', 'select', { options: ['AG', 'ZH'] }), f('sig', 'signature'), f('ini', 'initials'), f('ds', 'date_signed'),
]));

function rejects(prefill: Record<string, unknown>, param: string) {
  assert.throws(() => checkPrefill(FIELDS, prefill), (e: unknown) => e instanceof AppError && e.code === 'parameter_invalid' && e.param === param && e.message.startsWith(param));
}

describe('prefill rules', () => {
  it('accepts typed values and lists unmatched keys in request order', () => {
    const r = checkPrefill(FIELDS, { zeta: 1, name: 'Łódź', alpha: true, n: 12.5, d: '2024-02-29', e: 'a@b.co', p: '+41 44 123 45 67', c: true, r: 'No', s: 'ZH', beta: null });
    assert.deepEqual(r.unmatched, ['zeta', 'alpha', 'beta']);
    assert.deepEqual(r.values, { name: 'Łódź', n: 12.5, d: '2024-02-29', e: 'a@b.co', p: '+41 44 123 45 67', c: true, r: 'No', s: 'ZH' });
  });
  it('a decimal string is accepted for a number field and null clears any field', () => {
    assert.deepEqual(checkPrefill(FIELDS, { n: '-3.25', name: null }).values, { n: -3.25, name: null });
  });
  it('refuses each wrong type with param prefill.<name>', () => {
    rejects({ name: 5 }, 'prefill.name');
    rejects({ name: '日本語日本語' }, 'prefill.name'); // 6 > max_length 5 (characters, not bytes)
    rejects({ n: 'twelve' }, 'prefill.n');
    rejects({ n: true }, 'prefill.n');
    rejects({ d: '2023-02-29' }, 'prefill.d');
    rejects({ d: '01/02/2024' }, 'prefill.d');
    rejects({ e: 'not-an-email' }, 'prefill.e');
    rejects({ p: 'call me' }, 'prefill.p');
    rejects({ c: 'true' }, 'prefill.c');
    rejects({ r: 'Maybe' }, 'prefill.r');
    rejects({ s: 'ag' }, 'prefill.s');
    rejects({ sig: 'x' }, 'prefill.sig');
    rejects({ ini: 'x' }, 'prefill.ini');
    rejects({ ds: '2024-01-01' }, 'prefill.ds');
  });
  it('calendar dates', () => {
    assert.ok(isCalendarDate('2000-02-29'));
    assert.ok(!isCalendarDate('1900-02-29'));
    assert.ok(!isCalendarDate('2024-13-01'));
    assert.ok(!isCalendarDate('2024-1-01'));
  });
});
