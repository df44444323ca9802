import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { classify, GROUPS, ROOT, testFiles, TestGroupError } from '../../scripts/test-groups.js';

// npm test runs the files of three groups; a file in none would silently never run.
describe('test groups', () => {
  it('put every test file of the repository in exactly one group', () => {
    const files = testFiles();
    const groups = classify(files);
    assert.equal(groups.unit.length + groups.integration.length + groups.browser.length, files.length);
    assert.ok(groups.unit.includes('test/unit/test-groups.test.ts'));
    assert.ok(groups.integration.includes('test/api/forms.test.ts') && groups.integration.includes('test/unit/route-definition.test.ts'));
    // The browser group is exactly the files that drive Chromium (they run one per core, apart from the
    // integration files; one that ran beside those would compete with them for the two cores).
    const drivesChromium = files.filter((f) => /from '(?:playwright-core|\.\.\/pages\/chromium\.js|\.\/chromium\.js|\.\/browser-support\.js)'/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    assert.deepEqual(groups.browser, drivesChromium);
    assert.ok(groups.browser.includes('test/signing/signing-browser.test.ts'));
  });

  it('refuse a file in no group and a file in two, naming each', () => {
    assert.throws(() => classify(['test/unit/config.test.ts', 'test/newarea/thing.test.ts']), (e: Error) => e instanceof TestGroupError && /test\/newarea\/thing\.test\.ts is in no test group/.test(e.message));
    const overlapping = { ...GROUPS, unit: [...GROUPS.unit, 'test/api/forms.test.ts'] };
    assert.throws(() => classify(['test/api/forms.test.ts'], overlapping), /test\/api\/forms\.test\.ts is in several test groups \(unit, integration\)/);
  });
});
