import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LIMIT_PER_EMAIL_AND_IP, PASSWORD_CHECKS_PER_USER, SIGNUPS_PER_IP } from '../../src/domain/users/login-throttle.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { errorCode, PASSWORD, signedUp, uniqueEmail, visitor, type DashResponse } from './support.js';

// The sign-in, sign-up and password-change throttles hold under a burst of parallel requests: each
// attempt is counted before its password is checked, so no more than the limit are ever evaluated.

function tally(responses: DashResponse[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const r of responses) out[r.status] = (out[r.status] ?? 0) + 1;
  return out;
}

for (const dialect of DIALECTS) {
  describe(`dashboard throttles under parallel requests (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(dialect);
    });
    after(() => h.close());

    it('20 parallel wrong sign-ins for one e-mail from one address: 5 are checked, 15 get 429; then the right password waits too', async () => {
      const a = await signedUp(h, '10.20.0.1');
      const attacker = visitor(h, '10.20.0.2');
      const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => attacker.call('POST', '/dashboard/api/login', { json: { email: a.email, password: `wrong password ${i}` } })));
      assert.deepEqual(tally(burst), { 401: LIMIT_PER_EMAIL_AND_IP, 429: 20 - LIMIT_PER_EMAIL_AND_IP });
      for (const r of burst) assert.equal(errorCode(r), r.status === 401 ? 'login_failed' : 'rate_limited');
      const refused = burst.find((r) => r.status === 429)!;
      const retryAfter = Number(refused.headers['retry-after']);
      assert.ok(retryAfter > 0 && retryAfter <= 15 * 60, `Retry-After ${retryAfter}`);
      const right = await attacker.call('POST', '/dashboard/api/login', { json: { email: a.email, password: PASSWORD } });
      assert.equal(right.status, 429, 'the right password is refused while the pair is throttled');
      assert.equal(attacker.cookie, undefined);
      // The owner, elsewhere, still signs in.
      assert.equal((await visitor(h, '10.20.0.3').call('POST', '/dashboard/api/login', { json: { email: a.email, password: PASSWORD } })).status, 200);
    });

    it('a right password gives its attempt back: failures before it no longer count', async () => {
      const a = await signedUp(h, '10.21.0.1');
      const v = visitor(h, '10.21.0.2');
      const wrong = () => v.call('POST', '/dashboard/api/login', { json: { email: a.email, password: 'not the password' } });
      for (let i = 0; i < LIMIT_PER_EMAIL_AND_IP - 1; i++) assert.equal((await wrong()).status, 401);
      assert.equal((await v.call('POST', '/dashboard/api/login', { json: { email: a.email, password: PASSWORD } })).status, 200);
      // A fresh five for this pair.
      for (let i = 0; i < LIMIT_PER_EMAIL_AND_IP; i++) assert.equal((await wrong()).status, 401, `failure ${i + 1} after the success`);
      assert.equal((await wrong()).status, 429);
    });

    it(`20 parallel sign-ups from one address make ${SIGNUPS_PER_IP} accounts; refused ones (a taken address) do not use a place`, async () => {
      const ip = '10.22.0.1';
      const taken = await signedUp(h, '10.22.0.2');
      // Refused sign-ups first: they give their place back.
      for (let i = 0; i < 3; i++) {
        const res = await visitor(h, ip).call('POST', '/dashboard/api/signup', { json: { account_name: 'Dup', email: taken.email, password: PASSWORD } });
        assert.equal(res.status, 409);
      }
      const emails = Array.from({ length: 20 }, () => uniqueEmail('burst'));
      const burst = await Promise.all(emails.map((email) => visitor(h, ip).call('POST', '/dashboard/api/signup', { json: { account_name: 'Burst', email, password: PASSWORD } })));
      assert.deepEqual(tally(burst), { 201: SIGNUPS_PER_IP, 429: 20 - SIGNUPS_PER_IP });
      const made = await h.deps.database.db.selectFrom('users').select('email').where('email', 'in', emails).execute();
      assert.equal(made.length, SIGNUPS_PER_IP, 'exactly as many users as 201s');
    });

    it('the current-password check of a password change is throttled per user, even in parallel', async () => {
      const a = await signedUp(h, '10.23.0.1');
      const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => a.call('POST', '/dashboard/api/password', { json: { current_password: `wrong current ${i}`, new_password: 'a new long password' } })));
      assert.deepEqual(tally(burst), { 400: PASSWORD_CHECKS_PER_USER, 429: 10 - PASSWORD_CHECKS_PER_USER });
      const right = await a.call('POST', '/dashboard/api/password', { json: { current_password: PASSWORD, new_password: 'a new long password' } });
      assert.equal(right.status, 429, 'the right current password waits too');
      assert.equal(errorCode(right), 'rate_limited');
      // Nothing changed: the old password still signs in (from another address).
      assert.equal((await visitor(h, '10.23.0.2').call('POST', '/dashboard/api/login', { json: { email: a.email, password: PASSWORD } })).status, 200);
    });
  });
}
