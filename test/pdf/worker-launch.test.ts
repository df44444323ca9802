// The inspector's worker must start however the process loaded TypeScript.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const script = (name: string): string => fileURLToPath(new URL(`./support/${name}`, import.meta.url));
const { NODE_OPTIONS: _ignored, ...env } = process.env;

function run(args: string[]): { fields: number; execArgv: string[] } {
  const child = spawnSync(process.execPath, args, { encoding: 'utf8', env, timeout: 30_000 });
  assert.equal(child.status, 0, `exit ${child.status} ${child.signal ?? ''}: ${child.stderr}`);
  return JSON.parse(child.stdout) as { fields: number; execArgv: string[] };
}

describe('inspector worker launch', () => {
  it('works under node --import tsx', () => {
    const r = run(['--import', 'tsx', script('inspect-once.ts')]);
    assert.equal(r.fields, 12);
    assert.deepEqual(r.execArgv, ['--import', 'tsx']);
  });

  it("works when tsx is loaded through register() (bin/formsign.js)", () => {
    const r = run([script('inspect-once-register.mjs')]);
    assert.equal(r.fields, 12);
    assert.deepEqual(r.execArgv, []);
  });

  it('lets the process exit while the inspector is idle', () => {
    assert.equal(run(['--import', 'tsx', script('inspect-once.ts'), '--leave-open']).fields, 12);
  });
});
