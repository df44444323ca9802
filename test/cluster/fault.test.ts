import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { build, isStale } from '../../scripts/build.mjs';
import { runScenario } from './scenario.js';

// Issue 27: the product as a cluster (2 API processes, 2 workers, PostgreSQL, Redis, S3) drives forms
// through their whole life while its parts are killed and its services taken away, then every promise
// is checked (test/cluster/invariants.ts) and printed. PostgreSQL only: a cluster needs it.

const seed = Number(process.env['CLUSTER_SEED'] ?? Math.floor(Math.random() * 2 ** 31));

describe('a cluster under faults (postgres)', () => {
  before(async () => {
    // The processes run the compiled build, as `formsign serve` and `formsign worker` do.
    if (isStale()) await build();
  });

  it('keeps every promise while an API process and a worker are killed and Redis, S3 and PostgreSQL go away', { timeout: 240_000 }, async () => {
    const { checks, report } = await runScenario({ api: 2, workers: 2, loadMs: 45_000, concurrency: 3, faults: true, seed, drainMs: 75_000, log: (line) => console.log(line) });
    assert.deepEqual(checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`), [], `seed ${seed}\n${report}`);
    assert.equal(checks.length, 8);
  });
});
