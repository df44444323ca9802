// The PDF pool: CPU-time limits that start when a job runs, a bounded queue, fairness between owners,
// cancellation, and the same verdict for the same file however busy the pool is.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  createPdfWork, PdfBusyError, PdfFillFailedError, PdfJobCancelledError, PdfRejectedError, type PdfPoolOptions, type PdfWork,
} from '../../src/pdf/index.js';
import { readFixture } from './support/fixtures.js';
import { heapHog, manyObjects } from './support/hostile-pdfs.js';

const opened: PdfWork[] = [];
function pool(options: Partial<PdfPoolOptions> = {}): PdfWork {
  const work = createPdfWork({ workers: 1, jobCpuMs: 20_000, maxOldGenerationSizeMb: 512, maxQueued: 16, ...options });
  opened.push(work);
  return work;
}
after(() => Promise.all(opened.map((w) => w.close())));

const SMALL = 'lima_oxygen_prescription_fr.pdf';
// Parses for a few seconds (then is refused as damaged): a job that keeps the worker busy.
const slowJob = (): Uint8Array => heapHog(1_500_000);

/** Resolves with the job's outcome (its value or error), never rejects, recording the order of completion. */
function track<T>(order: string[], name: string, job: Promise<T>): Promise<T | Error> {
  return job.then((v) => { order.push(name); return v; }, (err: Error) => { order.push(name); return err; });
}

describe('PDF pool', () => {
  it('starts a job\'s clock when it runs: jobs queued for longer than the limit still pass', async () => {
    const work = pool({ jobCpuMs: 3_000, maxQueued: 256, perOwnerQueued: 256 });
    const bytes = readFixture(SMALL);
    await work.inspector.inspect(bytes); // start the worker outside the timing
    // Enough jobs that the last waits well past the limit before it starts. How long one job takes
    // depends on the machine and its load at that moment, so the batch doubles until it does.
    let count = 16;
    let waited = 0;
    let results: Awaited<ReturnType<typeof work.inspector.inspect>>[] = [];
    for (; count <= 256; count *= 2) {
      const started = performance.now();
      results = await Promise.all(Array.from({ length: count }, () => work.inspector.inspect(bytes)));
      waited = performance.now() - started;
      if (waited > 4_500) break;
    }
    assert.ok(waited > 3_000, `the queue took ${Math.round(waited)} ms for ${count} jobs, longer than one job's limit`);
    assert.equal(new Set(results.map((r) => JSON.stringify(r.fields))).size, 1, 'every job got the same answer');
    assert.equal(results[0]!.fields.length, 37);
  });

  it('stops a fill past its CPU limit with a clear error, replaces the worker and keeps serving', async () => {
    const work = pool({ jobCpuMs: 400 });
    const costly = await manyObjects(20_000);
    await assert.rejects(work.renderer.render(costly, [], {}), (err: unknown) => {
      assert.ok(err instanceof PdfFillFailedError, String(err));
      assert.equal(err.reason, 'time');
      assert.match(err.message, /^Filling this PDF took more than the 0\.4 s of processing Formsign allows/);
      return true;
    });
    const small = readFixture('openoffice_form_example.pdf');
    const out = await work.renderer.render(small, [], {});
    assert.equal(Buffer.from(out.subarray(0, 5)).toString(), '%PDF-');
  });

  it('refuses an inspection past its CPU limit as pdf_invalid', async () => {
    const work = pool({ jobCpuMs: 250, maxOldGenerationSizeMb: 2048 });
    await work.inspector.inspect(readFixture(SMALL)).catch(() => undefined);
    await assert.rejects(work.inspector.inspect(slowJob()), (err: unknown) => err instanceof PdfRejectedError && /too long/.test(err.message));
  });

  it('answers busy, with a retry time, once the queue is full', async () => {
    const work = pool({ maxQueued: 2, perOwnerQueued: 2 });
    await work.inspector.inspect(readFixture(SMALL)); // a started worker, so the first job runs at once
    const order: string[] = [];
    const running = track(order, 'running', work.inspector.inspect(slowJob()));
    const queued = [track(order, 'q1', work.inspector.inspect(readFixture(SMALL))), track(order, 'q2', work.inspector.inspect(readFixture(SMALL)))];
    await assert.rejects(work.inspector.inspect(readFixture(SMALL)), (err: unknown) => {
      assert.ok(err instanceof PdfBusyError, String(err));
      assert.ok(Number.isInteger(err.retryAfterSeconds) && err.retryAfterSeconds >= 1 && err.retryAfterSeconds <= 60);
      return true;
    });
    await Promise.all([running, ...queued]);
    assert.deepEqual(order, ['running', 'q1', 'q2']);
  });

  it('caps what one owner may queue, without refusing the others', async () => {
    const work = pool({ maxQueued: 16, perOwnerQueued: 2 });
    await work.inspector.inspect(readFixture(SMALL));
    const a = { owner: 'acct_a' };
    const jobs = [work.inspector.inspect(slowJob(), a), work.inspector.inspect(readFixture(SMALL), a), work.inspector.inspect(readFixture(SMALL), a)]
      .map((job) => job.catch((err: unknown) => err));
    await assert.rejects(work.inspector.inspect(readFixture(SMALL), a), PdfBusyError);
    const other = await work.inspector.inspect(readFixture(SMALL), { owner: 'acct_b' });
    assert.equal(other.fields.length, 37);
    await Promise.allSettled(jobs);
  });

  it('serves owners in turn: another account\'s job runs before the rest of a long batch', async () => {
    const work = pool();
    await work.inspector.inspect(readFixture(SMALL));
    const order: string[] = [];
    const batch = [1, 2, 3, 4].map((i) => track(order, `a${i}`, work.inspector.inspect(readFixture('cdc_icar_ltc_assessment.pdf'), { owner: 'acct_a' })));
    const b = track(order, 'b1', work.inspector.inspect(readFixture(SMALL), { owner: 'acct_b' }));
    await Promise.all([...batch, b]);
    assert.deepEqual(order, ['a1', 'b1', 'a2', 'a3', 'a4']);
  });

  it('drops a queued job whose caller gave up, and stops a running one', async () => {
    const work = pool();
    await work.inspector.inspect(readFixture(SMALL));
    const order: string[] = [];
    const leaving = new AbortController();
    const running = track(order, 'running', work.inspector.inspect(slowJob()));
    const queued = track(order, 'queued', work.inspector.inspect(readFixture(SMALL), { signal: leaving.signal }));
    const after = track(order, 'after', work.inspector.inspect(readFixture(SMALL)));
    leaving.abort();
    assert.ok((await queued) instanceof PdfJobCancelledError);
    assert.equal(order[0], 'queued', 'cancelled at once, not after the running job');
    await Promise.all([running, after]);
    assert.deepEqual(order, ['queued', 'running', 'after']);

    const stop = new AbortController();
    const started = performance.now();
    const long = work.inspector.inspect(slowJob(), { signal: stop.signal });
    setTimeout(() => stop.abort(), 300);
    await assert.rejects(long, PdfJobCancelledError);
    assert.ok(performance.now() - started < 5_000, 'the running job was stopped, not waited for');
    assert.equal((await work.inspector.inspect(readFixture(SMALL))).fields.length, 37, 'a new worker took over');
  });

  it('gives the same verdict on the same file however busy the pool and the main thread are', async () => {
    const work = pool({ workers: 2, jobCpuMs: 10_000 });
    const bytes = readFixture('us_state_ds11_passport_application.pdf');
    const alone = await work.inspector.inspect(bytes);
    // Eight at once from eight accounts, while the main thread burns CPU in slices.
    let burning = true;
    const burn = (async () => {
      while (burning) {
        const until = performance.now() + 40;
        while (performance.now() < until) Math.sqrt(Math.random());
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const loaded = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => work.inspector.inspect(bytes, { owner: `acct_${i}` })));
    burning = false;
    await burn;
    for (const r of loaded) {
      assert.equal(r.status, 'fulfilled', r.status === 'rejected' ? String(r.reason) : '');
      if (r.status === 'fulfilled') {
        assert.deepEqual(r.value.fields, alone.fields);
        assert.deepEqual(r.value.warnings, alone.warnings);
      }
    }
  });
});
