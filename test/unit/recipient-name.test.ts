import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { displayName } from '../../src/domain/sending/display-name.js';
import { normaliseRecipients } from '../../src/domain/sending/recipient-rules.js';
import { AppError } from '../../src/domain/errors.js';

// A recipient's name is optional (CONTRACT.md Part D): kept as given (trimmed) or null; where a person
// reads it, the address the link went to stands in.

describe('recipient name', () => {
  it('is optional: absent → null; given → trimmed', () => {
    const [a, b] = normaliseRecipients([
      { channel: 'email', email: 'ada@example.com' },
      { channel: 'sms', phone: '+14155550123', name: '  Ann  ' },
    ]);
    assert.equal(a!.name, null);
    assert.equal(b!.name, 'Ann');
  });

  it('when given, must not be blank', () => {
    assert.throws(
      () => normaliseRecipients([{ channel: 'email', email: 'ada@example.com', name: ' \t ' }]),
      (e: unknown) => e instanceof AppError && e.code === 'parameter_invalid' && e.param === 'recipients[0].name',
    );
  });

  it('is shown as the name, else the address of the channel the link went to', () => {
    assert.equal(displayName({ name: 'Ada', email: 'ada@example.com', phone: null, channel: 'email' }), 'Ada');
    assert.equal(displayName({ name: null, email: 'ada@example.com', phone: '+14155550123', channel: 'email' }), 'ada@example.com');
    assert.equal(displayName({ name: null, email: 'ada@example.com', phone: '+14155550123', channel: 'sms' }), '+14155550123');
    // An empty name (never accepted by the API) reads as none rather than as a blank.
    assert.equal(displayName({ name: '', email: null, phone: '+14155550123', channel: 'sms' }), '+14155550123');
  });
});
