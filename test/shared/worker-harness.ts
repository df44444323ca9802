import { after, before } from 'node:test';
import { createHarness, type DialectName, type Harness } from '../harness.js';

/**
 * A harness whose job worker runs, for the suite this is called in (before/after hooks): the flows
 * that go through sending, signing and sealing. Read the harness through the returned function, inside
 * tests (it exists once `before` has run).
 */
export function harnessWithWorker(dialect: DialectName): () => Harness {
  let h: Harness | undefined;
  before(async () => {
    h = await createHarness(dialect, { env: { BASE_URL: 'http://localhost:3000' } });
    await h.deps.worker.start();
  });
  after(async () => {
    await h?.deps.worker.stop();
    await h?.close();
  });
  return () => {
    if (!h) throw new Error('harnessWithWorker: read the harness inside a test, after before() has run');
    return h;
  };
}
