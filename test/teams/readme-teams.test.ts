import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { blocksOfSection } from '../shared/readme-blocks.js';
import { seedServiceCertificate } from '../shared/service-certificate.js';

// The README's "Teams" commands, run as written (bash, `npm run --silent formsign --` standing for the
// package's bin) on a fresh store: an account, an owner, a sender made a viewer and removed, the log.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

describe("README's Teams commands", () => {
  it('make the members, change and remove one, and print the activity that says so', () => {
    // The Teams section's own commands, before its single sign-on and two-factor parts (readme-sso.test.ts).
    const blocks = blocksOfSection(README, '## Teams', '### Single sign-on');
    assert.equal(blocks.length, 1);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-readme-teams-'));
    try {
      seedServiceCertificate(dir);
      const npm = `npm() { if [ "$1 $2 $3 $4" = "run --silent formsign --" ]; then shift 4; node ${JSON.stringify(path.join(ROOT, 'bin/formsign.js'))} "$@"; else return 1; fi; }`;
      const r = spawnSync('bash', ['-e', '-c', `${npm}\n${blocks[0]!.code}`], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', DATA_DIR: dir, LOG_LEVEL: 'silent' }, encoding: 'utf8', timeout: 120_000 });
      assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
      assert.match(r.stdout, /Created user usr_\w+ <owner@teams\.test> \(owner\) for acct_\w+\./);
      assert.match(r.stdout, /Created user usr_\w+ <sam@teams\.test> \(sender\)/);
      assert.match(r.stdout, /<sam@teams\.test> of acct_\w+ is now viewer \(was sender\)/);
      assert.match(r.stdout, /Removed user usr_\w+ <sam@teams\.test> \(viewer\)/);
      const log = r.stdout.split('\n').filter((l) => /^\d{4}-\d\d-\d\dT/.test(l));
      assert.deepEqual(log.map((l) => l.split(/\s+/)[1]), ['member.removed', 'member.role_changed', 'member.joined', 'member.joined']);
      assert.match(log[0]!, /operator → sam@teams\.test {2}role=viewer$/);
      assert.match(log[1]!, /operator → sam@teams\.test {2}from=sender to=viewer$/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
