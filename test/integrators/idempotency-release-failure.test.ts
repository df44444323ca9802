import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { IdempotencySlot } from '../../src/domain/idempotency/idempotency-slot.js';
import { createHarness, DIALECTS, errorOf, type Harness } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';

// A POST with an Idempotency-Key whose write fails because the database went away (503), and whose
// key then cannot be given back either (the database is still away): the client still gets the
// contract's 503 body with Retry-After, and the key is free again once its lease ends. Before, the
// failed release failed the onSend hook and Fastify answered its own body ({"statusCode":503,…}),
// found by the cluster fault test (issue 27).

const unavailable = () => Object.assign(new Error('The database is unavailable (Connection terminated unexpectedly).'), { code: 'FORMSIGN_DB_UNAVAILABLE' });

for (const dialect of DIALECTS) {
  describe(`Idempotency-Key when the database goes away mid-request (${dialect})`, () => {
    let h: Harness;
    let templateId: string;
    const { store, release } = IdempotencySlot.prototype;
    before(async () => {
      h = await createHarness(dialect);
      templateId = await seedTemplate(h, h.actors.aTest.partition, 'Lease', new Date().toISOString());
    });
    afterEach(() => {
      IdempotencySlot.prototype.store = store;
      IdempotencySlot.prototype.release = release;
    });
    after(async () => h?.close());

    it('answers the contract 503 with Retry-After when the key cannot be released either', async () => {
      let releases = 0;
      IdempotencySlot.prototype.store = () => Promise.reject(unavailable());
      IdempotencySlot.prototype.release = () => {
        releases++;
        return Promise.reject(unavailable());
      };
      const res = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId }, headers: { 'idempotency-key': 'release-fails-1' } });
      assert.equal(res.status, 503, res.body);
      assert.equal(res.headers['retry-after'], '1');
      const error = errorOf(res);
      assert.deepEqual([error.type, error.code, error.message], ['api_error', 'service_unavailable', 'The database is unavailable right now. Try again in 1 second.']);
      assert.match(error.request_id, /^req_/);
      assert.equal(releases, 1, 'the release was tried');
      const forms = await h.deps.database.db.selectFrom('forms').select('id').where('account_id', '=', h.actors.aTest.partition.accountId).execute();
      assert.deepEqual(forms, [], 'nothing was written');
    });
  });
}
