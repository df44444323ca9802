import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkQuotaCovers, rowsThatFit } from '../../src/domain/bulk/bulk-rules.js';
import { rowsOfCsv } from '../../src/domain/bulk/csv-rows.js';
import { AppError } from '../../src/domain/errors.js';
import type { FieldDef } from '../../src/pdf/field.js';
import { isPrefillable } from '../../src/domain/forms/value-rules.js';
import { csvCell } from '../../src/lib/csv-cell.js';

// A bulk send's CSV as rows of the JSON body's shape, and the quota's arithmetic (issue 42).

const field = (name: string, type: FieldDef['type']): FieldDef => ({ name, type, required: false, signer: 1, page: 1, x: 0, y: 0, width: 10, height: 10 });
const FIELDS = new Map([['full_name', field('full_name', 'text')], ['agree', field('agree', 'checkbox')], ['rent', field('rent', 'number')]]);

describe('bulk send CSV', () => {
  it('maps name, prefill.<field> and recipient.<n>.* columns; empty cells are no value', () => {
    const rows = rowsOfCsv('\uFEFFname,prefill.full_name,prefill.agree,prefill.rent,recipient.1.email,recipient.1.name,recipient.2.phone,recipient.2.locale\r\n' +
      'Lease A,"Lovelace, Ada",Yes,1200.50,ada@example.com,Ada,+14155550123,de\r\n' +
      ',Grace,0,,grace@example.com,,,\r\n\r\n', FIELDS, 10);
    assert.deepEqual(rows, [
      { name: 'Lease A', prefill: { full_name: 'Lovelace, Ada', agree: true, rent: '1200.50' }, recipients: [{ channel: 'email', email: 'ada@example.com', name: 'Ada' }, { channel: 'sms', phone: '+14155550123', locale: 'de' }] },
      { prefill: { full_name: 'Grace', agree: false }, recipients: [{ channel: 'email', email: 'grace@example.com' }] },
    ]);
  });

  it('refuses an unknown column, an unreadable file and too many lines as the whole request', () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e instanceof AppError ? [e.code, e.param] : ['thrown', String(e)];
      }
      return ['none'];
    };
    assert.deepEqual(code(() => rowsOfCsv('prefill.full_name,recipient.0.email\nA,a@example.com\n', FIELDS, 10)), ['parameter_invalid', 'file']);
    assert.deepEqual(code(() => rowsOfCsv('email\nA\n', FIELDS, 10)), ['parameter_invalid', 'file']);
    assert.deepEqual(code(() => rowsOfCsv('prefill.full_name\n"A\n', FIELDS, 10)), ['parameter_invalid', 'file']);
    assert.deepEqual(code(() => rowsOfCsv('prefill.full_name\nA\nB\nC\n', FIELDS, 2)), ['parameter_invalid', 'rows']);
    assert.deepEqual(code(() => rowsOfCsv('prefill.full_name\n', FIELDS, 2)), ['parameter_missing', 'rows']);
  });

  it('the quota: two calls a row; refused naming how many rows fit', () => {
    assert.equal(rowsThatFit(null, 5000), 5000);
    assert.equal(rowsThatFit(9, 5), 4);
    assert.equal(rowsThatFit(0, 5), 0);
    assert.doesNotThrow(() => checkQuotaCovers(10, 5));
    assert.throws(() => checkQuotaCovers(9, 5), (e: unknown) => e instanceof AppError && e.status === 402 && e.code === 'quota_exceeded' && /so 4 of the 5 valid rows fit/.test(e.message));
  });
});

describe('the dashboard’s downloaded CSV cells', () => {
  it('defuse text a spreadsheet would run as a formula (a leading \'), then quote as RFC 4180 says', () => {
    assert.equal(csvCell('=HYPERLINK("http://evil.example","x")'), `"'=HYPERLINK(""http://evil.example"",""x"")"`);
    assert.equal(csvCell('+1+1'), "'+1+1");
    assert.equal(csvCell('-2'), "'-2");
    assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvCell('\t=1'), "'\t=1");
    assert.equal(csvCell('\r=1'), `"'\r=1"`);
    assert.equal(csvCell('Lovelace, Ada'), '"Lovelace, Ada"');
    assert.equal(csvCell('a=b'), 'a=b', 'only a leading sign is a formula');
    assert.equal(csvCell(3), '3');
    assert.equal(csvCell(null), '');
  });
});

describe('fields a sender can prefill (checkPrefill, the bulk preview and the blank CSV)', () => {
  it('are not signing-stage fields, attachments or formulas', () => {
    assert.deepEqual(['text', 'email', 'checkbox', 'signature', 'initials', 'date_signed', 'attachment'].filter((type) => isPrefillable({ type })), ['text', 'email', 'checkbox']);
    assert.equal(isPrefillable({ type: 'number', formula: 'a + b' }), false);
  });
});
