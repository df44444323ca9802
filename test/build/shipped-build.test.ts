import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

// The container image ships dist/ without src/ (Dockerfile): bin/formsign.js must then run the build as
// it is, not fail looking for the sources or try to compile (no esbuild, no write access there).

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('scripts/build.mjs in a build shipped without its sources', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-shipped-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dir, 'scripts'));
  fs.copyFileSync(path.join(ROOT, 'scripts', 'build.mjs'), path.join(dir, 'scripts', 'build.mjs'));
  const load = async () => (await import(`${pathToFileURL(path.join(dir, 'scripts', 'build.mjs')).href}?${Date.now()}`)) as { isStale(): boolean };

  it('is not stale without src/, and is again when src/ exists without a build', async () => {
    assert.equal((await load()).isStale(), false, 'no src/: the shipped dist/ is used as it is');
    fs.mkdirSync(path.join(dir, 'src'));
    assert.equal((await load()).isStale(), true, 'src/ and no dist/: a build is due');
  });
});
