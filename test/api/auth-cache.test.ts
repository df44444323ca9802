import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { revokeKey } from '../../src/domain/keys/manage-keys.js';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';

// The one integration suite with the auth cache on, as in production (every other suite turns it off
// so that revocations and plan changes apply at once).

for (const dialect of DIALECTS) {
  describe(`auth with the cache on (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      // An hour, not production's minute: the flood below takes a minute on a loaded machine, and an
      // entry expiring by age would look like one evicted by the flood.
      h = await createHarness(dialect, { authCacheMs: 3_600_000 });
    });
    after(() => h.close());

    it('a revoked key keeps working until its cache entry goes (bounded staleness), then answers 401', async () => {
      assert.equal((await h.request({ url: '/api/v1/templates', as: h.actors.bTest })).status, 200);
      await revokeKey(h.deps.domain, h.actors.bTest.keyId);
      assert.equal((await h.request({ url: '/api/v1/templates', as: h.actors.bTest })).status, 200, 'served from the cache');
      h.deps.authenticator.invalidate();
      const res = await h.request({ url: '/api/v1/templates', as: h.actors.bTest });
      assert.equal(res.status, 401);
      assert.equal(errorOf(res).code, 'api_key_invalid');
    });

    it('a flood of distinct invalid keys, past the cache bound, does not evict a valid key', async () => {
      assert.equal((await h.request({ url: '/api/v1/templates', as: h.actors.aTest })).status, 200);
      const flood = 10_500; // past the 10,000 entries the negative cache keeps
      // A few through HTTP, the rest straight to the app's authenticator (the HTTP layer adds nothing
      // to the cache's behaviour, only time).
      const bad = (i: number) => `Bearer fk_test_${i.toString(16).padStart(32, '0')}`;
      for (let i = 0; i < 50; i++) assert.equal(errorOf(await h.request({ url: '/api/v1/templates', headers: { authorization: bad(i) } })).code, 'api_key_invalid');
      for (let i = 50; i < flood; i += 50) {
        await Promise.all(Array.from({ length: Math.min(50, flood - i) }, (_, j) => assert.rejects(async () => h.deps.authenticator.authenticate(bad(i + j)))));
      }
      const sizes = h.deps.authenticator.cacheSizes();
      assert.ok(sizes.invalid <= 10_000, `negative cache bounded: ${sizes.invalid}`);
      // Revoked behind the cache's back: only a cached entry can still let the key in, which shows
      // the flood did not push it out.
      await revokeKey(h.deps.domain, h.actors.aTest.keyId);
      assert.equal((await h.request({ url: '/api/v1/templates', as: h.actors.aTest })).status, 200, 'the valid key is still cached');
    });
  });
}
