import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ScopedContext } from '../../src/lib/scoped-context.js';

// ScopedContext keeps AsyncLocalStorage's promise (the value follows the awaits of a run) while
// switching Node's async hooks off whenever no run is in progress.

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
/**
 * Whether the storage is switched on (Node 20–23 keep an `enabled` flag and the process-wide hooks with
 * it). Node 24 carries the context without hooks and has no flag: there the storage counts as on
 * exactly while a run is in progress, which is what `get` reports.
 */
const hooksOn = (ctx: ScopedContext<unknown>) => {
  const inner = ctx as unknown as { storage: { enabled?: boolean }; running: number };
  return inner.storage.enabled ?? inner.running > 0;
};

describe('ScopedContext', () => {
  it('carries the value through awaits, timers and nested calls of a run, and only there', async () => {
    const ctx = new ScopedContext<string>();
    assert.equal(ctx.get(), undefined);
    const seen: Array<string | undefined> = [];
    const deep = async () => {
      await tick();
      seen.push(ctx.get());
    };
    await ctx.run('unit-1', async () => {
      seen.push(ctx.get());
      await tick();
      await new Promise((resolve) => setTimeout(resolve, 1));
      seen.push(ctx.get());
      await deep();
    });
    assert.deepEqual(seen, ['unit-1', 'unit-1', 'unit-1']);
    assert.equal(ctx.get(), undefined);
  });

  it('keeps concurrent runs apart and code beside them outside', async () => {
    const ctx = new ScopedContext<string>();
    const order: string[] = [];
    const unit = (name: string) => ctx.run(name, async () => {
      for (let i = 0; i < 3; i++) {
        await tick();
        order.push(`${name}:${ctx.get()}`);
      }
    });
    const beside = (async () => {
      for (let i = 0; i < 3; i++) {
        await tick();
        order.push(`beside:${String(ctx.get())}`);
      }
    })();
    await Promise.all([unit('a'), unit('b'), beside]);
    assert.equal(order.length, 9);
    for (const entry of order) {
      const [who, value] = entry.split(':');
      assert.equal(value, who === 'beside' ? 'undefined' : who, entry);
    }
  });

  it('switches the async hooks off once the last run settles, and on again for the next', async () => {
    const ctx = new ScopedContext<number>();
    let release!: () => void;
    const first = ctx.run(1, () => new Promise<void>((resolve) => (release = resolve)));
    const second = ctx.run(2, async () => {
      await tick();
      return ctx.get();
    });
    assert.equal(hooksOn(ctx), true);
    assert.equal(await second, 2);
    assert.equal(hooksOn(ctx), true, 'one run is still in progress');
    release();
    await first;
    assert.equal(hooksOn(ctx), false);
    assert.equal(await ctx.run(3, async () => ctx.get()), 3);
    assert.equal(hooksOn(ctx), false);
  });

  it('settles the count when a run rejects or throws before its first await', async () => {
    const ctx = new ScopedContext<number>();
    await assert.rejects(ctx.run(1, async () => {
      await tick();
      throw new Error('unit failed');
    }), /unit failed/);
    assert.throws(() => ctx.run(2, () => {
      throw new Error('thrown at once');
    }), /thrown at once/);
    assert.equal(hooksOn(ctx), false);
    assert.equal(await ctx.run(3, async () => ctx.get()), 3);
  });
});
