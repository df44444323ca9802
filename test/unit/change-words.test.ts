import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import vm from 'node:vm';
import { CHANGE_WORDS } from '../../src/cli/verify-command.js';
import { readPageScript } from '../../src/http/pages/page-scripts.js';

// The words for each kind of change after a signature live twice: in `formsign verify` and in the
// /verify page's classic script (a browser file cannot import the CLI's module). They must not drift.

describe('the verifier says each kind of change in the same words everywhere', () => {
  it('verdict.ts (the /verify page, as served) and formsign verify hold the same table', () => {
    const source = readPageScript(new URL('../../src/http/pages/verify/assets/verdict.js', import.meta.url)).toString('utf8');
    const page = vm.runInNewContext(`${source}\n;formsignChangeWords`) as Record<string, string>;
    assert.deepEqual({ ...page }, { ...CHANGE_WORDS });
  });
});
