import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fitSignerRoles, MAX_ROLE_LENGTH, parseSignerRoles } from '../../src/domain/templates/signer-roles.js';

// A generator's or model's roles are made to fit the template rules, never refused: what comes out is
// always accepted by parseSignerRoles (the check a template's `signers` get when saved).
describe('fitSignerRoles', () => {
  it('keeps the first role of a slot, trims and cuts names, drops empty names and impossible slots', () => {
    const long = 'Authorised representative of the landlord '.repeat(5);
    const fitted = fitSignerRoles([
      { slot: 2, role: '  Landlord ' },
      { slot: 1, role: 'Tenant' },
      { slot: 1, role: 'Guarantor' },
      { slot: 3, role: '   ' },
      { slot: 0, role: 'Nobody' },
      { slot: 101, role: 'Too far' },
      { slot: 4, role: long },
    ]);
    assert.deepEqual(fitted.map((r) => r.slot), [1, 2, 4]);
    assert.equal(fitted[0]?.role, 'Tenant');
    assert.equal(fitted[1]?.role, 'Landlord');
    assert.equal([...fitted[2]!.role].length <= MAX_ROLE_LENGTH, true);
    assert.ok(long.trim().startsWith(fitted[2]!.role));
    assert.deepEqual(parseSignerRoles(fitted), fitted);
  });
});
