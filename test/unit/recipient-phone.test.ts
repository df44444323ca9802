import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../src/domain/errors.js';
import { normaliseRecipients } from '../../src/domain/sending/recipient-rules.js';

// Issue 34 item 9: a refused SMS number says what is wrong — above all a country code left out.

function refusal(phone: string): AppError {
  try {
    normaliseRecipients([{ channel: 'sms', phone }]);
  } catch (e) {
    assert.ok(e instanceof AppError);
    assert.equal(e.code, 'parameter_invalid');
    assert.equal(e.param, 'recipients[0].phone');
    return e;
  }
  assert.fail(`${phone} was accepted`);
}

describe('SMS numbers: the refusal names the missing country code', () => {
  it('a national number: + and the country code are asked for', () => {
    assert.match(refusal('(415) 555-0123').message, /international number starting with \+ and the country code/);
  });

  it('a + followed by no known country code', () => {
    assert.match(refusal('+0 415 555 0123').message, /has no country code after the \+: write \+ and the country code before the number/);
  });

  it("a + with the country code left out ('+4155550123' reads as +41 and is too short)", () => {
    const m = refusal('+4155550123').message;
    assert.match(m, /'\+4155550123' is not a possible phone number for country code \+41: is the country code missing after the \+\?/);
    assert.match(m, /e\.g\. \+1 415 555 0123/);
  });

  it('a number with its country code is accepted as E.164', () => {
    assert.equal(normaliseRecipients([{ channel: 'sms', phone: '+1 (415) 555-0123' }])[0]!.phone, '+14155550123');
  });
});
