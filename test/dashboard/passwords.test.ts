import assert from 'node:assert/strict';
import { randomBytes, scryptSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { hashPassword, SCRYPT_PARAMS, verifyPassword } from '../../src/domain/users/passwords.js';

// Password hashes: scrypt at N=2^17, r=8, p=1, the parameters stored in each hash, so hashes made
// with the earlier N=2^14 keep verifying.

describe('password hashes', () => {
  it('are made with N=2^17, r=8, p=1 and verify only the right password', async () => {
    assert.deepEqual(SCRYPT_PARAMS, { N: 131072, r: 8, p: 1 });
    const hash = await hashPassword('correct horse battery');
    assert.match(hash, /^scrypt\$131072\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    assert.equal(await verifyPassword('correct horse battery', hash), true);
    assert.equal(await verifyPassword('correct horse batterY', hash), false);
  });

  it('an N=2^14 hash made before the change still verifies', async () => {
    const salt = randomBytes(16);
    const key = scryptSync('an older password', salt, 32, { N: 16384, r: 8, p: 1 });
    const old = `scrypt$16384$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
    assert.equal(await verifyPassword('an older password', old), true);
    assert.equal(await verifyPassword('another password', old), false);
  });

  it('a malformed hash or one asking for more memory than allowed never matches (and never throws)', async () => {
    const salt = randomBytes(16).toString('base64url');
    for (const bad of ['', 'bcrypt$x', `scrypt$abc$8$1$${salt}$AAAA`, `scrypt$16384$8$1$${salt}$`, `scrypt$4194304$8$1$${salt}$AAAAAAAA`, `scrypt$0$8$1$${salt}$AAAAAAAA`, `scrypt$16383$8$1$${salt}$AAAAAAAA`]) {
      assert.equal(await verifyPassword('whatever it is', bad), false, bad);
    }
  });
});
