import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileOwnProcessReason, OWN_PROCESS_MARK, ownProcessReason } from '../../scripts/test-isolation.js';

// The rule that decides which test files may share a process (scripts/run-tests.ts batches the rest).
describe('test isolation rule', () => {
  it('lets a file that only declares tests share a process', () => {
    assert.equal(ownProcessReason("import { test } from 'node:test';\nconst url = process.env.TEST_DATABASE_URL ?? 'x';\ntest('x', () => {});\n"), undefined);
    // Said in a comment, not done.
    assert.equal(ownProcessReason('// process.env.X = "1" would change the next file\n/* globalThis.fetch = f */\n'), undefined);
    // A comparison is not an assignment.
    assert.equal(ownProcessReason("if (process.env.CI === '1') {}\n"), undefined);
  });

  it('runs alone a file that changes what the next file in its process would see', () => {
    const cases: [string, RegExp][] = [
      ["process.env.TZ = 'UTC';", /process\.env/],
      ["process.env['PDF_WORKERS'] = '2';", /process\.env/],
      ['delete process.env.HOME;', /process\.env/],
      ['Object.assign(process.env, { A: "1" });', /process\.env/],
      ['globalThis.fetch = async () => new Response();', /global/],
      ['setGlobalDispatcher(new Agent());', /dispatcher/],
      ["mock.timers.enable({ apis: ['setTimeout'] });", /mock/],
      ["mock.method(fs, 'readFile');", /mock/],
      ["process.on('unhandledRejection', () => {});", /process/],
      ["process.chdir('/tmp');", /process/],
      ['process.exitCode = 1;', /process/],
      [`// ${OWN_PROCESS_MARK} (it measures its own RSS)`, /marked/],
    ];
    for (const [source, why] of cases) assert.match(ownProcessReason(source) ?? 'shares', why, source);
  });

  it('follows the test/ modules a file imports', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-isolation-'));
    try {
      fs.mkdirSync(path.join(root, 'test', 'x', 'support'), { recursive: true });
      fs.writeFileSync(path.join(root, 'test', 'x', 'a.test.ts'), "import { helper } from './support/helper.js';\nimport { y } from '../../src/y.js';\n");
      fs.writeFileSync(path.join(root, 'test', 'x', 'support', 'helper.ts'), "export const helper = 1;\nprocess.env.NODE_ENV = 'test';\n");
      fs.writeFileSync(path.join(root, 'test', 'x', 'b.test.ts'), "import { y } from '../../src/y.js';\n");
      assert.match(fileOwnProcessReason(root, 'test/x/a.test.ts') ?? '', /^test\/x\/support\/helper\.ts assigns to process\.env/);
      assert.equal(fileOwnProcessReason(root, 'test/x/b.test.ts'), undefined);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
