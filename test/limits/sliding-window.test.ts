import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryWindowStore } from '../../src/domain/limits/memory-window.js';
import { defaultPerWindow, monthOf, monthSpan } from '../../src/domain/limits/policy.js';
import { estimate, timeWhenAtMost, windowState } from '../../src/domain/limits/sliding-window.js';

const W = 60_000;
const T = 1_000 * W; // a window boundary

describe('sliding-window counter', () => {
  it('weights the previous window by the part of it still inside the sliding window', () => {
    assert.equal(estimate({ prev: 10, cur: 2 }, T, W), 12);
    assert.equal(estimate({ prev: 10, cur: 2 }, T + W / 2, W), 7);
    assert.equal(estimate({ prev: 10, cur: 2 }, T + (W * 9) / 10, W), 3);
  });

  it('knows when a request fits again: within this window, or in the next when this one alone is full', () => {
    assert.equal(timeWhenAtMost({ prev: 10, cur: 0 }, 9, T, W), T + W / 10);
    assert.equal(timeWhenAtMost({ prev: 0, cur: 3 }, 5, T + 5, W), T + 5);
    // 10 in the current window, limit 10: free when the current count has slid down to 9 in the next one.
    assert.equal(timeWhenAtMost({ prev: 0, cur: 10 }, 9, T + 1000, W), T + W + W / 10);
  });

  it('headers: remaining never negative, reset always after now, Retry-After at least a second', () => {
    const full = windowState({ prev: 0, cur: 5, allowed: false }, 5, T + 30_000, W);
    assert.equal(full.remaining, 0);
    assert.ok(full.reset > (T + 30_000) / 1000);
    assert.equal(full.retryAfter, 42); // 5 × (1 − f) ≤ 4 at f = 0.2 of the next window: 30 s + 12 s
    const empty = windowState({ prev: 0, cur: 0, allowed: false }, 5, T, W);
    assert.deepEqual([empty.remaining, empty.reset], [5, T / 1000 + 1]);
  });

  it('the in-process store counts only what passes and forgets windows older than the previous one', () => {
    const s = new MemoryWindowStore(W);
    const passed = Array.from({ length: 5 }, () => s.hit('k', 3, 1, T).allowed);
    assert.deepEqual(passed, [true, true, true, false, false]);
    assert.deepEqual(s.hit('k', 3, 0, T), { prev: 0, cur: 3, allowed: false }, 'cost 0 only looks');
    // Next window, three quarters in: 3 × 0.25 = 0.75 counted, so two fit.
    const later = Array.from({ length: 3 }, () => s.hit('k', 3, 1, T + W + (3 * W) / 4).allowed);
    assert.deepEqual(later, [true, true, false]);
    s.hit('other', 3, 1, T + 3 * W);
    assert.equal(s.size, 1, 'k was swept');
  });
});

describe('limits policy', () => {
  it("the contract's defaults per endpoint", () => {
    assert.equal(defaultPerWindow('GET', '/api/v1/templates'), 300);
    assert.equal(defaultPerWindow('HEAD', '/api/v1/forms/:form_id/pdf'), 300);
    assert.equal(defaultPerWindow('POST', '/api/v1/forms'), 120);
    assert.equal(defaultPerWindow('POST', '/api/v1/forms/:form_id/send'), 60);
    assert.equal(defaultPerWindow('POST', '/api/v1/forms/generate'), 20);
    assert.equal(defaultPerWindow('PATCH', '/api/v1/webhooks/:webhook_id'), 30);
    assert.equal(defaultPerWindow('POST', '/api/v1/webhooks/:webhook_id/deliveries/:delivery_id/retry'), 30);
  });

  it('UTC calendar months', () => {
    assert.equal(monthOf(Date.UTC(2026, 11, 31, 23, 59, 59)), '2026-12');
    assert.equal(monthSpan(Date.UTC(2026, 11, 31, 23, 59, 59)).resetS, Date.UTC(2027, 0, 1) / 1000);
  });

  it('the kept month is reused only inside its bounds: forward, back and at the edges', () => {
    const dec = Date.UTC(2026, 11, 15);
    assert.equal(monthSpan(dec).month, '2026-12');
    assert.equal(monthSpan(dec), monthSpan(dec + 1000), 'the same span object while inside the month');
    // The last millisecond of December, then the first of January, then back (an injected clock).
    assert.equal(monthOf(Date.UTC(2027, 0, 1) - 1), '2026-12');
    assert.equal(monthOf(Date.UTC(2027, 0, 1)), '2027-01');
    assert.equal(monthSpan(Date.UTC(2027, 0, 1)).resetS, Date.UTC(2027, 1, 1) / 1000);
    assert.equal(monthOf(Date.UTC(2026, 10, 30, 23, 59, 59, 999)), '2026-11');
    assert.equal(monthSpan(Date.UTC(2026, 10, 30)).resetS, Date.UTC(2026, 11, 1) / 1000);
    // February of a leap year and far jumps.
    assert.equal(monthSpan(Date.UTC(2028, 1, 29, 12)).resetS, Date.UTC(2028, 2, 1) / 1000);
    assert.equal(monthOf(Date.UTC(1999, 0, 1)), '1999-01');
    assert.equal(monthOf(dec), '2026-12');
  });
});
