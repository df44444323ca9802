import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createHarness, errorOf, type Harness, type TestResponse } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';

// Issue 26, defect 12: a full disk answered 500 internal_error. The store (SQLite) runs on a 24 MiB
// tmpfs mounted for this test; a file fills it. Writes then answer 503 storage_unavailable with
// Retry-After and a message naming the cause, /metrics counts them, /readyz reports it while it
// lasts; once the file is removed, writes succeed again and nothing earlier was lost.

describe('a full disk (SQLite on a small tmpfs)', () => {
  let mount: string;
  let h: Harness;
  let templateId: string;
  const filler = () => path.join(mount, 'filler');
  before(async () => {
    mount = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mount]);
    h = await createHarness('sqlite', { env: { DATA_DIR: path.join(mount, 'data') } });
    templateId = await seedTemplate(h, h.actors.aTest.partition, 'Full', '2026-01-01T00:00:00.000Z');
  });
  after(async () => {
    await h?.close().catch(() => undefined);
    execFileSync('umount', ['-l', mount]);
    fs.rmSync(mount, { recursive: true, force: true });
  });

  const createForm = () => h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId, prefill: { full_name: 'x'.repeat(5000) } } });

  it('503 storage_unavailable with Retry-After, counted and reported by /readyz; writes resume when space returns', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await createForm()).json<{ id: string }>().id);
    // Fill the disk: write until no byte more fits.
    const fd = fs.openSync(filler(), 'w');
    const chunk = Buffer.alloc(256 * 1024, 1);
    try {
      for (;;) fs.writeSync(fd, chunk);
    } catch (err) {
      assert.equal((err as { code?: string }).code, 'ENOSPC');
    } finally {
      fs.closeSync(fd);
    }
    // The WAL and the database may still hold free pages: write until the store needs more.
    let refused: TestResponse | undefined;
    for (let i = 0; i < 2000 && !refused; i++) {
      const res = await createForm();
      if (res.status === 201) made.push(res.json<{ id: string }>().id);
      else refused = res;
    }
    assert.ok(refused, 'a write was refused once the disk was full');
    assert.equal(refused.status, 503, refused.body);
    const e = errorOf(refused);
    assert.deepEqual([e.type, e.code], ['api_error', 'storage_unavailable']);
    assert.match(e.message, /storage is full/);
    assert.equal(refused.headers['retry-after'], '30');

    const metrics = await h.app.inject({ url: '/metrics' });
    const count = Number(/^formsign_storage_full_errors_total (\d+)/m.exec(metrics.body)?.[1]);
    assert.ok(count >= 1, metrics.body.slice(0, 200));
    const ready = await h.request({ url: '/readyz' });
    assert.equal(ready.status, 503);
    assert.equal(errorOf(ready).code, 'storage_unavailable');
    assert.match(errorOf(ready).message, /disk that holds the data is full/);
    // Reads still work meanwhile, and everything written before is there.
    assert.equal((await h.request({ url: `/api/v1/forms/${made[0]!}`, as: h.actors.aTest })).status, 200);

    // Space returns: readiness and writes are back, with nothing lost.
    fs.rmSync(filler());
    assert.equal((await h.request({ url: '/readyz' })).status, 200);
    const after = await createForm();
    assert.equal(after.status, 201, after.body);
    for (const id of [...made, after.json<{ id: string }>().id]) {
      assert.equal((await h.request({ url: `/api/v1/forms/${id}`, as: h.actors.aTest })).status, 200, id);
    }
  });
});
