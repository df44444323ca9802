import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { blocksOfSection } from '../shared/readme-blocks.js';
import { seedServiceCertificate } from '../shared/service-certificate.js';

// The README's "Single sign-on" and "Two-factor sign-in" commands, pasted in sequence into one shell
// as written (`npm run --silent formsign --` standing for the package's bin) on a fresh store.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

describe("README's single sign-on and two-factor commands", () => {
  it('claim a domain, require single sign-on and two-factor sign-in, and reset a user\'s', () => {
    const blocks = blocksOfSection(README, '### Single sign-on', '## A first form, step by step');
    assert.equal(blocks.length, 2);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-readme-sso-'));
    try {
      seedServiceCertificate(dir);
      const npm = `npm() { if [ "$1 $2 $3 $4" = "run --silent formsign --" ]; then shift 4; node ${JSON.stringify(path.join(ROOT, 'bin/formsign.js'))} "$@"; else return 1; fi; }`;
      const r = spawnSync('bash', ['-e', '-c', `${npm}\n${blocks.map((b) => b.code).join('\n')}`], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', DATA_DIR: dir, LOG_LEVEL: 'silent' }, encoding: 'utf8', timeout: 120_000 });
      assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
      assert.match(r.stdout, /Account acct_\w+ claims acme\.test: addresses @acme\.test sign in through the OpenID provider/);
      assert.match(r.stdout, /Account acct_\w+: single sign-on for acme\.test\.\n {2}passwords: off \(single sign-on required\); two-factor sign-in: optional for password users\./);
      assert.match(r.stdout, /passwords: off \(single sign-on required\); two-factor sign-in: required for password users\./);
      assert.match(r.stdout, /Two-factor sign-in is off for <ops@acme\.test> and their sessions ended/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
