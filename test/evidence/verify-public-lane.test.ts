// Issue 35 over HTTP, on both dialects: a PDF built to be costly to verify answers 422 pdf_too_complex
// instead of being worked on (that public work does not hold up account work is test/pdf/pool-lanes);
// and a request whose PDF job
// cannot be served within the pool's deadline is answered 503 with Retry-After, over a real socket,
// before the idle-socket timeout could close it unanswered.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';
import { costlyToRead, manyObjects } from '../pdf/support/hostile-pdfs.js';
import { fixture } from '../shared/fixtures.js';
import { multipart } from '../shared/multipart.js';

const SMALL = 'lima_oxygen_prescription_fr.pdf';

interface ErrorBody { error: { type: string; code: string; message: string; request_id: string } }

for (const dialect of DIALECTS) {
  describe(`public verification and PDF deadlines (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(dialect, { env: { PDF_WORKERS: '1' }, pdf: { verifyCpuMs: 1_000, publicQueued: 10, publicPerOwner: 1, deadlineMs: 45_000 } });
    });
    after(() => h.close());


    it('a few hundred bytes built to be costly → 422 pdf_too_complex, in the contract\'s shape', async () => {
      const hostile = costlyToRead(15);
      assert.ok(hostile.length < 1_000, `${hostile.length} bytes`);
      const send = () => h.request({ method: 'POST', url: '/api/v1/verify', as: h.actors.aTest, payload: Buffer.from(hostile), headers: { 'content-type': 'application/pdf' } });
      // A loaded host may answer busy first (the worker's start-up counts against the deadline): retry, as a client would.
      let res = await send();
      for (let i = 0; i < 5 && res.status === 503; i++) res = await send();
      assert.equal(res.status, 422, res.body);
      const error = errorOf(res);
      assert.equal(error.type, 'invalid_request_error');
      assert.equal(error.code, 'pdf_too_complex');
      assert.match(error.message, /more than the 1 s of processing/);
    });
  });
}

describe('a PDF job past its deadline is answered, not dropped (real socket)', () => {
  let h: Harness;
  before(async () => {
    // The idle-socket timeout shortened to 4 s and the PDF deadline to 1.5 s: the bound is what answers.
    h = await createHarness('sqlite', { env: { PDF_WORKERS: '1' }, limits: { idleTimeoutMs: 4_000 }, pdf: { deadlineMs: 1_500 } });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => h.close());

  it('uploads queued behind costly work get 503 service_unavailable with Retry-After', async () => {
    const address = h.app.server.address();
    assert.ok(address !== null && typeof address === 'object');
    const post = async (pdf: Uint8Array | Buffer, key: string): Promise<{ status: number; retryAfter: string | null; body: ErrorBody }> => {
      const m = multipart([{ name: 'file', value: Buffer.from(pdf), filename: 'form.pdf' }]);
      const res = await fetch(`http://127.0.0.1:${address.port}/api/v1/templates`, {
        method: 'POST', body: m.payload, headers: { ...m.headers, authorization: `Bearer ${key}` },
      });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as ErrorBody };
    };
    const heavy = await manyObjects(40_000);
    const answers = await Promise.all([post(heavy, h.actors.aTest.key), post(heavy, h.actors.aTest.key), post(fixture(SMALL), h.actors.bTest.key)]);
    // Every request is answered (fetch would throw on a socket closed without one); those the pool
    // could not serve within its deadline say so and when to come back.
    const busy = answers.filter((a) => a.status === 503);
    assert.ok(busy.length >= 1, answers.map((a) => a.status).join(','));
    for (const a of busy) {
      assert.equal(a.body.error.code, 'service_unavailable');
      assert.match(a.retryAfter ?? '', /^[1-9]\d*$/);
    }
    for (const a of answers) assert.ok(a.status === 503 || a.status === 201, `${a.status} ${JSON.stringify(a.body)}`);
  });
});
