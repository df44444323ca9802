// scripts/test-batch.mjs, the process that runs several test files one after another (npm test's
// default), gives every file it is given a whole result: here two small files, the first of which
// ends while a timer of its own is still pending. That is what lost files from batches before: the
// batch polled for a file's open handles on an unref'd timer, the file's timer fired meanwhile, nothing
// held the event loop, and the process ended with exit 13 ("unsettled top-level await") without the
// file's result and without running the rest of the batch.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Not NODE_TEST_CONTEXT either: with it the child's runner would stream its events to this one, not to its reporter.
const { NODE_OPTIONS: _ignored, NODE_TEST_CONTEXT: _parent, ...env } = process.env;

describe('test batch', () => {
  // The batch imports its files from .test-build/ (scripts/compile-tests.mjs): the fixtures go there.
  const rel = `test/.batch-fixture-${process.pid}-${Date.now()}`;
  const dir = path.join(ROOT, '.test-build', rel);
  const results = path.join(dir, 'results.jsonl');
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reports every file, in order, when a file ends with a timer still pending', () => {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'a.test.js'), "import { test } from 'node:test';\ntest('a leaves a short timer', () => { setTimeout(() => {}, 20); });\n");
    fs.writeFileSync(path.join(dir, 'b.test.js'), "import assert from 'node:assert/strict';\nimport { describe, it } from 'node:test';\ndescribe('b', () => { it('one', () => assert.equal(1, 1)); it('two', async () => { await new Promise((r) => setTimeout(r, 5)); }); });\n");
    const files = [`${rel}/a.test.ts`, `${rel}/b.test.ts`];
    const r = spawnSync(
      process.execPath,
      ['--test-reporter', path.join(ROOT, 'scripts', 'test-batch-reporter.mjs'), '--test-reporter-destination', `${results}.report`, path.join(ROOT, 'scripts', 'test-batch.mjs'), '--limit', '60000', '--results', results, ...files],
      { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 },
    );
    assert.equal(r.status, 0, `exit ${r.status} ${r.signal ?? ''}: ${r.stdout}${r.stderr}`);
    const lines = (f: string) => fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { file: string; ok?: boolean; counts?: Record<string, number> });
    assert.deepEqual(lines(results).map((l) => l.file), files, 'each file ended, in order');
    const reports = lines(`${results}.report`);
    assert.deepEqual(reports.map((l) => [l.file, l.ok, l.counts?.['pass']]), [[files[0], true, 1], [files[1], true, 2]]);
  });
});
