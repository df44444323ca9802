// The PDF pool's lanes and bounds (issue 35): public verification has its own queue, threads and CPU
// limit, so account work is never queued behind it; a job is answered busy at its deadline instead of
// waiting on; a PDF too costly to verify is `pdf_too_complex`; and what one owner may have admitted
// does not depend on whether its first job has started yet.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createPdfWork, PdfBusyError, PdfRejectedError, type PdfPoolOptions, type PdfWork } from '../../src/pdf/index.js';
import { readFixture } from './support/fixtures.js';
import { costlyToRead, heapHog } from './support/hostile-pdfs.js';

const opened: PdfWork[] = [];
function pool(options: Partial<PdfPoolOptions> = {}): PdfWork {
  const work = createPdfWork({ workers: 1, jobCpuMs: 20_000, maxOldGenerationSizeMb: 512, maxQueued: 16, ...options });
  opened.push(work);
  return work;
}
after(() => Promise.all(opened.map((w) => w.close())));

const SMALL = 'lima_oxygen_prescription_fr.pdf';
const FORM = 'openoffice_form_example.pdf';

/** Settles to the job's value or error, never rejects. */
const outcome = <T>(job: Promise<T>): Promise<T | Error> => job.catch((err: Error) => err);

async function until(what: string, ready: () => boolean): Promise<void> {
  for (let i = 0; i < 6_000 && !ready(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.ok(ready(), `timed out waiting until ${what}`);
}

describe('PDF pool lanes and bounds', () => {
  it('runs account work while ten hostile public verifications are in flight, not after them', async () => {
    const work = pool({ verifyCpuMs: 1_500, publicQueued: 10, publicPerOwner: 1 });
    // The account lane warm, so the fill below does not wait for a thread to start.
    await work.renderer.render(readFixture(FORM), [], {});
    const hostile = costlyToRead(15);
    assert.ok(hostile.length < 1_000, `${hostile.length} bytes`);
    const verifications = Array.from({ length: 10 }, (_, i) => outcome(work.verify(hostile, undefined, { lane: 'public', owner: `203.0.113.${i}` })));
    await until('a hostile verification runs', () => work.pool.load('public').running === 1);
    // Account work submitted now starts at once, ahead of the nine public jobs still waiting: a seal, a
    // fill and an upload's inspection all queue the same way. (Which finishes first is the machine's
    // business: the public thread runs at the lowest priority, but on an idle core it may still win.)
    const fill = work.renderer.render(readFixture(FORM), [], {});
    assert.deepEqual(work.pool.load('account'), { running: 1, queued: 0 }, 'the fill runs, not queued behind public work');
    assert.deepEqual(work.pool.load('public'), { running: 1, queued: 9 });
    assert.equal(Buffer.from((await fill).subarray(0, 5)).toString(), '%PDF-');
    const inspected = work.inspector.inspect(readFixture(SMALL), { owner: 'acct_a' });
    assert.equal(work.pool.load('account').running, 1, 'the inspection runs at once too');
    assert.ok(work.pool.load('public').queued >= 8, JSON.stringify(work.pool.load('public')));
    assert.equal((await inspected).fields.length, 37);
    // What the public lane does with them once the machine has a core to spare is the next tests';
    // closing the pool answers the rest now.
    await work.close();
    for (const r of await Promise.all(verifications)) assert.ok(r instanceof Error, 'no hostile PDF was verified');
  });

  it('refuses a verification past its CPU limit as pdf_too_complex, a few hundred bytes of PDF', async () => {
    const work = pool({ jobCpuMs: 1_000 });
    const hostile = costlyToRead(15);
    await assert.rejects(work.verify(hostile, undefined), (err: unknown) => {
      assert.ok(err instanceof PdfRejectedError, String(err));
      assert.equal(err.code, 'pdf_too_complex');
      assert.match(err.message, /more than the 1 s of processing/);
      return true;
    });
    assert.equal((await work.verify(readFixture(FORM), undefined)).signatures.length, 0, 'a new worker took over');
  });

  it('bounds the public lane: its own queue is refused busy while account work is still admitted', async () => {
    const work = pool({ verifyCpuMs: 1_000, publicQueued: 2, publicPerOwner: 1 });
    const hostile = costlyToRead(15);
    const inFlight = [0, 1, 2].map((i) => outcome(work.verify(hostile, undefined, { lane: 'public', owner: `addr ${i}` })));
    await assert.rejects(work.verify(hostile, undefined, { lane: 'public', owner: 'addr 3' }), (err: unknown) => err instanceof PdfBusyError && err.retryAfterSeconds >= 1);
    // One address may not hold two places.
    await assert.rejects(work.verify(hostile, undefined, { lane: 'public', owner: 'addr 0' }), PdfBusyError);
    assert.equal((await work.inspector.inspect(readFixture(SMALL), { owner: 'acct_a' })).fields.length, 37);
    await work.close();
    for (const r of await Promise.all(inFlight)) assert.ok(r instanceof Error, 'no hostile PDF was verified');
  });

  it('answers a job busy at its deadline, queued or running, instead of keeping its caller waiting', async () => {
    // No warm-up: whether the deadline finds the jobs waiting for the worker to start, running, or
    // queued behind the costly one, each is answered busy by then.
    const work = pool({ deadlineMs: 1_000 });
    const started = performance.now();
    const running = outcome(work.inspector.inspect(heapHog(1_500_000)));
    const queued = outcome(work.inspector.inspect(readFixture(SMALL)));
    const [r1, r2] = await Promise.all([running, queued]);
    for (const r of [r1, r2]) {
      assert.ok(r instanceof PdfBusyError, String(r));
      assert.ok(Number.isInteger(r.retryAfterSeconds) && r.retryAfterSeconds >= 1);
    }
    assert.ok(performance.now() - started < 5_000, `answered in ${Math.round(performance.now() - started)} ms`);
  });

  it('admits the same number of one owner\'s jobs whether or not the first has started', async () => {
    // A fresh pool: its worker is still starting, so nothing runs yet when the jobs arrive.
    // A deadline far off: only admission is under test, not how long a loaded host takes to serve.
    const work = pool({ maxQueued: 12, perOwnerQueued: 3, deadlineMs: 600_000 });
    const a = { owner: 'acct_a' };
    const jobs = [1, 2, 3, 4].map(() => outcome(work.inspector.inspect(readFixture(SMALL), a)));
    await assert.rejects(work.inspector.inspect(readFixture(SMALL), a), PdfBusyError);
    for (const r of await Promise.all(jobs)) assert.ok(!(r instanceof Error), String(r));
  });
});
