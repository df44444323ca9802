import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { borrowedPdfWork, createPdfWork, makeSampleTemplatePdf } from '../../src/pdf/index.js';

// The test harness shares one PDF pool per batch process (testDepsOptions): a harness's close, or a
// test closing the inspector it was handed, must not stop the pool under the next harness.

describe('a borrowed PDF pool', () => {
  it('closing the view and its inspector leaves the owner\'s pool working; the owner\'s close stops it', async () => {
    const work = createPdfWork({ workers: 1, jobCpuMs: 20_000, trialFillCpuMs: 20_000, maxOldGenerationSizeMb: 256, maxQueued: 10, perOwnerQueued: 10 });
    try {
      const view = borrowedPdfWork(work);
      const sample = await makeSampleTemplatePdf();
      assert.equal((await view.inspector.inspect(sample.pdf)).fields.length, sample.fields.length);
      await view.inspector.close();
      await view.close();
      assert.equal((await work.inspector.inspect(sample.pdf)).fields.length, sample.fields.length, 'the pool still runs jobs');
      assert.equal((await view.inspector.inspect(sample.pdf)).fields.length, sample.fields.length, 'and the view still reaches it');
    } finally {
      await work.close();
    }
    await assert.rejects(work.inspector.inspect(new Uint8Array(Buffer.from('%PDF-1.7'))));
  });
});
