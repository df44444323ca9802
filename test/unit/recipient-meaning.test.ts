import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normaliseRecipients } from '../../src/domain/sending/recipient-rules.js';
import { manifestation } from '../../src/domain/signing/seal-form.js';

// A signature's meaning (issue 38): one line of at most 80 characters, and the manifestation the seal
// prints under a signature with it.

const one = (meaning: unknown) => normaliseRecipients([{ channel: 'email', email: 'ada@example.com', meaning } as never])[0]!;

describe('recipients[].meaning', () => {
  it('is trimmed to one line, kept up to 80 characters, absent as null', () => {
    assert.equal(one('  Approved \t for   release ').meaning, 'Approved for release');
    assert.equal(one('م'.repeat(80)).meaning, 'م'.repeat(80));
    assert.equal(normaliseRecipients([{ channel: 'email', email: 'ada@example.com' }])[0]!.meaning, null);
  });
  it('refuses blank, too long, control characters and non-strings, naming the recipient', () => {
    for (const bad of ['   ', 'x'.repeat(81), 'Approved\u0000', 42]) {
      assert.throws(() => one(bad), (e: { code: string; param: string }) => e.code === 'parameter_invalid' && e.param === 'recipients[0].meaning', String(bad));
    }
  });
  it('the manifestation: meaning, name and UTC time under a signature, not under initials nor without a meaning', () => {
    const r = { meaning: 'Reviewed', name: 'Ada Lovelace', email: 'ada@example.com', phone: null, channel: 'email' as const };
    assert.equal(manifestation(r, { kind: 'signature', signedAt: '2026-05-04T09:12:03.456Z' }), 'Reviewed · Ada Lovelace · 2026-05-04 09:12:03 UTC');
    assert.equal(manifestation(r, { kind: 'initials', signedAt: '2026-05-04T09:12:03.456Z' }), undefined);
    assert.equal(manifestation({ ...r, meaning: null }, { kind: 'signature', signedAt: '2026-05-04T09:12:03.456Z' }), undefined);
  });
});
