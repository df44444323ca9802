import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Transact } from '../../src/db/handles.js';
import { createHarness, DIALECTS, errorOf, type Harness } from '../harness.js';
import { listen } from '../api/raw-http.js';
import { seedTemplate } from '../shared/seed.js';

// Issue 35, items 8 and 9: an Idempotency-Key is answered only once its write has committed; every
// check of POST /forms/generate comes before its first write; two Idempotency-Key headers are refused;
// and the README's word on which answers are replayed is what the service does.

const unavailable = () => Object.assign(new Error('The database is unavailable (Connection terminated unexpectedly).'), { code: 'FORMSIGN_DB_UNAVAILABLE' });

for (const dialect of DIALECTS) {
  describe(`Idempotency-Key and a failed commit, generate's checks, repeated keys (${dialect})`, () => {
    let h: Harness;
    let templateId: string;
    before(async () => {
      h = await createHarness(dialect);
      templateId = await seedTemplate(h, h.actors.aTest.partition, 'Commit', new Date().toISOString());
    });
    after(async () => h?.close());

    const formsNamed = (name: string) => h.deps.database.db.selectFrom('forms').select('id').where('account_id', '=', h.actors.aTest.partition.accountId).where('name', '=', name).execute();

    it('a write whose commit fails gives its key back: the retry runs (201), not 409', async () => {
      const domain = h.deps.domain as { transact: Transact };
      const real = domain.transact;
      let failed = 0;
      // The unit runs whole (its answer stored in the transaction), then the commit fails: everything
      // it wrote is rolled back, as when the database goes away at COMMIT.
      domain.transact = (async (unit: Parameters<Transact>[0]) => {
        await real(async (trx) => {
          await unit(trx);
          failed++;
          throw unavailable();
        });
      }) as unknown as Transact;
      const json = { template_id: templateId, name: 'Commit fails once' };
      const headers = { 'idempotency-key': `commit-fails-${dialect}` };
      let first;
      try {
        first = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json, headers });
      } finally {
        domain.transact = real;
      }
      assert.equal(failed, 1);
      assert.equal(first.status, 503, first.body);
      assert.equal(errorOf(first).code, 'service_unavailable');
      assert.deepEqual(await formsNamed('Commit fails once'), [], 'nothing was written');

      const retry = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json, headers });
      assert.equal(retry.status, 201, retry.body);
      assert.equal(retry.headers['idempotent-replayed'], undefined, 'the retry ran');
      const again = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json, headers });
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body, retry.body);
      assert.equal((await formsNamed('Commit fails once')).length, 1, 'one form');
    });

    it('generate with save_as_template and a refused prefill saves nothing, however often it is sent', async () => {
      const templates = () => h.deps.database.db.selectFrom('templates').select('id').where('account_id', '=', h.actors.aTest.partition.accountId).execute();
      const before = (await templates()).length;
      for (let i = 0; i < 3; i++) {
        const res = await h.request({ method: 'POST', url: '/api/v1/forms/generate', as: h.actors.aTest, json: { prompt: 'name, email, date of birth', save_as_template: true, prefill: { date_of_birth: 'not a date' } } });
        assert.equal(res.status, 400, res.body);
        assert.equal(errorOf(res).param, 'prefill.date_of_birth');
      }
      assert.equal((await templates()).length, before, 'no template was saved');
      const ok = await h.request({ method: 'POST', url: '/api/v1/forms/generate', as: h.actors.aTest, json: { prompt: 'name, email, date of birth', save_as_template: true, prefill: { date_of_birth: '1990-04-01' } } });
      assert.equal(ok.status, 201, ok.body);
      assert.equal((await templates()).length, before + 1, 'a valid request still saves its template');
    });

    it('two Idempotency-Key headers are refused (400), not joined into one key', async () => {
      // Over a socket: the header is sent twice, as two lines (inject would join them itself).
      const port = await listen(h.app);
      const raw = await new Promise<{ statusCode: number; body: string }>((resolve, reject) => {
        const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/api/v1/forms', headers: { authorization: `Bearer ${h.actors.aTest.key}`, 'content-type': 'application/json', 'idempotency-key': ['k-one', 'k-two'] } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        });
        req.on('error', reject);
        req.end(JSON.stringify({ template_id: templateId, name: 'Two keys' }));
      });
      const error = (JSON.parse(raw.body) as { error: { type: string; code: string; param: string; message: string } }).error;
      assert.deepEqual([error.type, error.code, error.param], ['invalid_request_error', 'parameter_invalid', 'Idempotency-Key']);
      assert.match(error.message, /one Idempotency-Key/);
      assert.deepEqual(await formsNamed('Two keys'), [], 'nothing was written');
      // The joined value the server used to take as the key is still an ordinary key when sent once.
      const one = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId, name: 'Two keys' }, headers: { 'idempotency-key': 'k-one, k-two' } });
      assert.equal(one.status, 201, one.body);
    });

    it('answers given before the operation holds the key (401, 413, 415) are not kept: a retry with the same key runs', async () => {
      const key = `before-operation-${dialect}`;
      const body = JSON.stringify({ template_id: templateId, name: 'After refusals' });
      const noKey = await h.app.inject({ method: 'POST', url: '/api/v1/forms', headers: { 'content-type': 'application/json', 'idempotency-key': key }, payload: body });
      assert.equal(noKey.statusCode, 401, noKey.body);
      const wrongType = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, payload: body, headers: { 'content-type': 'text/plain', 'idempotency-key': key } });
      assert.equal(wrongType.status, 415, wrongType.body);
      const tooLarge = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, payload: JSON.stringify({ template_id: templateId, name: 'x'.repeat(1_100_000) }), headers: { 'content-type': 'application/json', 'idempotency-key': key } });
      assert.equal(tooLarge.status, 413, tooLarge.body);
      for (const refused of [wrongType, tooLarge]) assert.equal(refused.headers['idempotent-replayed'], undefined);
      // None of them held or stored the key: the request runs under it (not 409 idempotency_key_reused), then replays.
      const ran = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, payload: body, headers: { 'content-type': 'application/json', 'idempotency-key': key } });
      assert.equal(ran.status, 201, ran.body);
      assert.equal(ran.headers['idempotent-replayed'], undefined, 'it ran');
      const again = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, payload: body, headers: { 'content-type': 'application/json', 'idempotency-key': key } });
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal((await formsNamed('After refusals')).length, 1);
    });

    it("the operation's own 4xx is replayed; a schema 400 before it is not stored", async () => {
      const headers = { 'idempotency-key': `refusals-${dialect}` };
      const missing = { template_id: 'tmpl_000000000000000000000000' };
      const first = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: missing, headers });
      assert.equal(first.status, 404, first.body);
      const replay = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: missing, headers });
      assert.equal(replay.headers['idempotent-replayed'], 'true', 'a 404 of the operation is kept');
      assert.equal(replay.body, first.body);

      const schemaHeaders = { 'idempotency-key': `schema-${dialect}` };
      const bad = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: 42 }, headers: schemaHeaders });
      assert.equal(bad.status, 400, bad.body);
      const badAgain = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: 42 }, headers: schemaHeaders });
      assert.equal(badAgain.status, 400);
      assert.equal(badAgain.headers['idempotent-replayed'], undefined, 'a schema 400 is answered anew, not replayed');
      // Nor does it hold the key: the corrected request runs under the same key.
      const fixed = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId, name: 'Fixed' }, headers: schemaHeaders });
      assert.equal(fixed.status, 201, fixed.body);
    });
  });
}
