// The two caches that hold PDF work's results are bounded: the template cache by bytes, the render
// cache by bytes and by age.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createRenderCache } from '../../src/domain/forms/render-cache.js';
import { fieldSet } from '../../src/domain/templates/field-set.js';
import type { CachedTemplate } from '../../src/domain/context.js';
import { TemplateCache, templateWeight } from '../../src/domain/templates/template-cache.js';
import { createFsBlobStore } from '../../src/providers/blob/index.js';

function template(id: string, fieldCount: number): CachedTemplate {
  const fields = Array.from({ length: fieldCount }, (_, i) => ({ name: `field_${i}`, type: 'text', required: false, signer: 1, page: 1, x: 1, y: 1, width: 10, height: 10 }));
  const json = JSON.stringify(fields);
  return { id, accountId: 'acct_a', mode: 'test', name: id, pdfKey: `k/${id}.pdf`, version: 1, fields: fieldSet(json), json: `{"id":"${id}","fields":${json}}`, deleted: false, readAt: 0 };
}

describe('template cache', () => {
  it('is bounded by bytes, not by count: big templates push out the least recently used', () => {
    const big = templateWeight(template('t0', 2_000));
    // Room for four, not five.
    const cache = new TemplateCache(big * 4 + 40);
    for (let i = 0; i < 6; i++) cache.set(`t${i}`, template(`t${i}`, 2_000));
    assert.ok(cache.bytes <= cache.maxBytes);
    assert.equal(cache.size, 4);
    assert.equal(cache.get('t0'), undefined);
    assert.ok(cache.get('t5'));
    // Reading keeps an entry: t2 was read, so t3 goes next.
    assert.ok(cache.get('t2'));
    cache.set('t6', template('t6', 2_000));
    assert.ok(cache.get('t2'));
    assert.equal(cache.get('t3'), undefined);
    // Small templates fit by the hundred in the same budget.
    for (let i = 0; i < 200; i++) cache.set(`s${i}`, template(`s${i}`, 5));
    assert.equal(cache.size > 100, true);
    assert.ok(cache.bytes <= cache.maxBytes);
  });

  it('does not keep a template heavier than a quarter of the budget', () => {
    const cache = new TemplateCache(templateWeight(template('x', 100)) * 2);
    cache.set('small', template('small', 1));
    cache.set('huge', template('huge', 100));
    assert.equal(cache.get('huge'), undefined);
    assert.ok(cache.get('small'), 'and it did not evict the others');
  });

  it('weighs a 20,000-field template at several megabytes', () => {
    assert.ok(templateWeight(template('w', 20_000)) > 5_000_000);
  });
});

describe('render cache', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-render-cache-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const p = { accountId: 'acct_r', mode: 'test' as const };

  it('drops renderings older than its age bound, and finds what an earlier process stored', async () => {
    let now = 1_000_000;
    const blobs = createFsBlobStore(path.join(dir, 'age'));
    const cache = createRenderCache(blobs, { maxBytes: 1 << 20, maxAgeMs: 60_000, now: () => now });
    await cache.put(cache.keyFor(p, 'a'.repeat(32)), new Uint8Array(100));
    assert.equal((await cache.get(cache.keyFor(p, 'a'.repeat(32))))?.length, 100);
    now += 61_000;
    assert.equal(await cache.get(cache.keyFor(p, 'a'.repeat(32))), null, 'too old: drawn again');
    await cache.put(cache.keyFor(p, 'b'.repeat(32)), new Uint8Array(50));
    assert.equal(await blobs.exists(cache.keyFor(p, 'a'.repeat(32))), false, 'the old one is deleted by the next sweep');
    assert.equal(await cache.bytes(), 50);
    // A new process reads the listing.
    const fresh = createRenderCache(blobs, { maxBytes: 1 << 20, maxAgeMs: 3_600_000_000 });
    assert.equal(await fresh.bytes(), 50);
  });

  it('stays within its byte bound, least recently used out first', async () => {
    const blobs = createFsBlobStore(path.join(dir, 'size'));
    const cache = createRenderCache(blobs, { maxBytes: 250, maxAgeMs: 3_600_000 });
    const key = (c: string) => cache.keyFor(p, c.repeat(32));
    await cache.put(key('a'), new Uint8Array(100));
    await cache.put(key('b'), new Uint8Array(100));
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.ok(await cache.get(key('a')), 'a is used again');
    await cache.put(key('c'), new Uint8Array(100));
    assert.ok(await cache.bytes() <= 250);
    assert.equal(await blobs.exists(key('b')), false, 'b, least recently used, is gone');
    assert.equal(await blobs.exists(key('a')), true);
    assert.equal(await blobs.exists(key('c')), true);
  });
});
