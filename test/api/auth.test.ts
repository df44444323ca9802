import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { revokeKey } from '../../src/domain/keys/manage-keys.js';
import { setAccountPlan } from '../../src/domain/accounts/manage-accounts.js';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';

for (const dialect of DIALECTS) {
  describe(`auth matrix (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(dialect);
    });
    after(() => h.close());

    const expect401 = async (authorization: string | undefined, code: string) => {
      const res = await h.request({ url: '/api/v1/templates', headers: authorization === undefined ? {} : { authorization } });
      assert.equal(res.status, 401);
      const e = errorOf(res);
      assert.equal(e.type, 'authentication_error');
      assert.equal(e.code, code);
      assert.match(e.message, /API key/);
      assert.equal(e.request_id, res.headers['service-request-id']);
      return e;
    };

    it('missing key → 401 api_key_missing', async () => {
      await expect401(undefined, 'api_key_missing');
      await expect401('', 'api_key_missing');
    });

    it('malformed, wrong prefix, wrong scheme and unknown keys → the same 401 api_key_invalid', async () => {
      const messages = new Set<string>();
      for (const bad of [
        'Bearer fk_test_123',
        `Bearer fk_test_${'G'.repeat(32)}`,
        `Bearer fk_test_${'A'.repeat(32)}`, // upper-case hex is not a key
        `Bearer sk_test_${'a'.repeat(32)}`,
        `Bearer fk_prod_${'a'.repeat(32)}`,
        `Basic ${Buffer.from('x:y').toString('base64')}`,
        `Bearer fk_test_${'0'.repeat(32)}`, // well-formed, unknown
        `Bearer ${h.actors.aTest.key}x`,
      ]) {
        messages.add((await expect401(bad, 'api_key_invalid')).message);
      }
      assert.equal(messages.size, 1, 'no hint which check failed');
    });

    it('a valid test key passes and the partition is its own', async () => {
      const res = await h.request({ url: '/api/v1/templates', as: h.actors.bTest });
      assert.equal(res.status, 200);
      assert.deepEqual(res.json(), { object: 'list', data: [], has_more: false });
    });

    it('a live key on a trial account → 402 plan_required; on a paid account → 200', async () => {
      const res = await h.request({ url: '/api/v1/templates', as: h.actors.cLive });
      assert.equal(res.status, 402);
      assert.equal(errorOf(res).code, 'plan_required');
      assert.equal(errorOf(res).type, 'permission_error');
      const ok = await h.request({ url: '/api/v1/templates', as: h.actors.aLive });
      assert.equal(ok.status, 200);
      // Upgrading the account lets its live key in (the harness has no auth cache).
      await setAccountPlan(h.deps.domain, h.actors.cLive.partition.accountId, 'paid');
      assert.equal((await h.request({ url: '/api/v1/templates', as: h.actors.cLive })).status, 200);
    });

    it('a revoked key → 401 api_key_invalid', async () => {
      assert.equal((await h.request({ url: '/api/v1/templates', as: h.actors.bTest })).status, 200);
      await revokeKey(h.deps.domain, h.actors.bTest.keyId);
      const res = await h.request({ url: '/api/v1/templates', as: h.actors.bTest });
      assert.equal(res.status, 401);
      assert.equal(errorOf(res).code, 'api_key_invalid');
    });

    it('keys are stored only as SHA-256 and last use is recorded', async () => {
      // Stands alone: it uses the key it checks instead of relying on an earlier test to have.
      assert.equal((await h.request({ url: '/api/v1/templates', as: h.actors.aTest })).status, 200);
      const rows = await h.deps.database.db.selectFrom('api_keys').selectAll().execute();
      for (const r of rows) {
        assert.match(r.key_hash, /^[0-9a-f]{64}$/);
        for (const value of Object.values(r)) assert.ok(!String(value).includes(h.actors.aTest.key.slice(8)), 'secret never stored');
      }
      const mine = rows.find((r) => r.id === h.actors.aTest.keyId);
      assert.equal(mine?.key_hash, createHash('sha256').update(h.actors.aTest.key).digest('hex'), 'the hash is SHA-256 of the whole key');
      // last_used_at is written off the request's path: wait for it, within a bound.
      const deadline = Date.now() + 3_000;
      let lastUsed: string | null = null;
      while (!lastUsed && Date.now() < deadline) {
        lastUsed = (await h.deps.database.db.selectFrom('api_keys').select('last_used_at').where('id', '=', h.actors.aTest.keyId).executeTakeFirstOrThrow()).last_used_at;
        if (!lastUsed) await new Promise((r) => setTimeout(r, 20));
      }
      assert.ok(lastUsed, 'last_used_at set after use');
    });

    it('openapi.yaml and sdk/typescript need a key too', async () => {
      for (const url of ['/api/v1/openapi.yaml', '/api/v1/sdk/typescript']) {
        assert.equal((await h.request({ url })).status, 401);
      }
    });
  });
}
