import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { throttledWarning } from '../../src/lib/throttled-warning.js';

describe('throttledWarning', () => {
  it('writes a kind at most once per interval, then says how many it left out; kinds apart', () => {
    const lines: string[] = [];
    let t = 1_000;
    const warn = throttledWarning(5_000, (l) => lines.push(l), () => t);
    warn('a', 'pool a lost');
    t += 1_000;
    warn('a', 'pool a lost');
    warn('a', 'pool a lost');
    warn('b', 'pool b lost');
    t += 4_000;
    warn('a', 'pool a lost again');
    t += 1;
    warn('a', 'pool a lost');
    assert.deepEqual(lines, ['pool a lost', 'pool b lost', 'pool a lost again (2 more since the last warning)']);
  });
});
