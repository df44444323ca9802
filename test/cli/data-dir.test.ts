// An unusable DATA_DIR stops every command at once with one line naming it (issue 22): before the
// check, DATA_DIR=/proc/x hung for two minutes without a word.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-data-dir-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function formsign(dataDir: string, ...args: string[]) {
  const started = Date.now();
  const r = spawnSync(process.execPath, ['bin/formsign.js', ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' }, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - started };
}

describe('an unusable DATA_DIR', () => {
  const file = path.join(tmp, 'a-file');
  fs.writeFileSync(file, 'not a folder');
  const cases: Array<[string, string, string]> = [
    ['a folder that cannot be created (/proc/x)', '/proc/x', 'it cannot be created there'],
    ['an existing folder no file can be written in (/proc)', '/proc', 'files cannot be created in it'],
    ['a file', file, 'it is a file, not a folder'],
    ['a folder below a file', path.join(file, 'data'), 'a file stands where a folder is needed'],
  ];
  for (const [what, dir, reason] of cases) {
    for (const command of [['accounts', 'list'], ['serve']]) {
      it(`${what}: \`formsign ${command.join(' ')}\` exits 1 with one line`, () => {
        const r = formsign(dir, ...command);
        assert.equal(r.signal, null, `ended by ${r.signal} after ${r.ms} ms: ${r.stderr}`);
        assert.equal(r.code, 1, r.stderr);
        assert.deepEqual(r.stderr.trim().split('\n'), [`DATA_DIR ${dir} is not a folder this user can write (${reason}); set DATA_DIR to one, e.g. DATA_DIR=./data.`]);
        assert.equal(r.stdout, '');
      });
    }
  }

  it('a usable folder that does not exist yet is created, several levels deep', () => {
    const dir = path.join(tmp, 'new', 'nested', 'data');
    const r = formsign(dir, 'accounts', 'list');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'No accounts.');
    assert.ok(fs.statSync(dir).isDirectory());
    assert.deepEqual(fs.readdirSync(dir).filter((f) => f.startsWith('.write-check')), [], 'the probe file is removed');
  });
});
