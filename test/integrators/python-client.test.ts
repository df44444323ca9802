import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeSampleTemplatePdf } from '../../src/pdf/index.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';

// The Python client (clients/python, issue 37 item 2) against a live server on each database: its pytest
// suite creates, sends, signs (through the signing page's HTTP calls), downloads the signed PDF, pages
// through /events, verifies a real webhook delivery and checks typed errors. The server's worker runs
// in-process, as `npm start` runs it.

// The runner's working directory is the repository's root.
const SUITE = path.resolve('clients/python');

/** A Python with pytest, setuptools and wheel: Debian's (.ci/run installs python3-pytest), else the one on PATH. */
function pythonWithPytest(): string {
  for (const py of ['/usr/bin/python3', 'python3']) {
    if (spawnSync(py, ['-c', 'import pytest'], { stdio: 'ignore' }).status === 0) return py;
  }
  assert.fail('no python3 with pytest: install Debian\'s python3-pytest (.ci/run does)');
}

function runPytest(py: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(py, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', ...args], { cwd: SUITE, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('the Python client', () => {
  const py = pythonWithPytest();

  it('its webhook checks match the server\'s scheme (no server needed)', async () => {
    const r = await runPytest(py, ['tests/test_webhooks.py'], {});
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /\b1[0-9] passed\b/, r.out);
  });

  it('installs with pip from its folder (standard library only, no index)', () => {
    const target = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-py-'));
    try {
      const r = spawnSync(py, ['-m', 'pip', 'install', '--quiet', '--no-index', '--no-build-isolation', '--no-deps', '--target', target, SUITE], { encoding: 'utf8', env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1' } });
      assert.equal(r.status, 0, r.stdout + r.stderr);
      const check = spawnSync(py, ['-c', 'import formsign, sys; print(formsign.__version__, hasattr(formsign.Client, "send_form"))'], { encoding: 'utf8', cwd: os.tmpdir(), env: { ...process.env, PYTHONPATH: target } });
      assert.equal(check.stdout.trim(), '0.1.0 True', check.stderr);
    } finally {
      fs.rmSync(target, { recursive: true, force: true });
    }
  });

  for (const dialect of DIALECTS) {
    describe(`against a live server (${dialect})`, () => {
      let h: Harness;
      let baseUrl = '';
      let pdfPath = '';
      before(async () => {
        h = await createHarness(dialect, { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCALE: '0.001' } });
        await h.deps.worker.start();
        baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' });
        pdfPath = path.join(h.dataDir, 'agreement.pdf');
        fs.writeFileSync(pdfPath, (await makeSampleTemplatePdf()).pdf);
      });
      after(async () => {
        await h.close();
      });

      it('pytest tests/test_live.py passes: flow, paging, a real delivery, idempotency, typed errors', async () => {
        const r = await runPytest(py, ['tests/test_live.py'], { FORMSIGN_BASE_URL: baseUrl, FORMSIGN_API_KEY: h.actors.aTest.key, FORMSIGN_TEMPLATE_PDF: pdfPath });
        assert.equal(r.code, 0, r.out);
        assert.match(r.out, /\b4 passed\b/, r.out);
      });
    });
  }
});
