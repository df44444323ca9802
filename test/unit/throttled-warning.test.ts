import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kindOfLine, repeatLimitedLog, throttledWarning } from '../../src/lib/throttled-warning.js';

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

describe('repeatLimitedLog (issue 35 item 6)', () => {
  it('treats lines that differ only in ids and numbers as one kind: one per interval, with the count left out', () => {
    const lines: string[] = [];
    let t = 0;
    const log = repeatLimitedLog(10_000, (l) => lines.push(l), () => t);
    for (let i = 0; i < 50; i++) {
      log(`formsign worker: job job_${'abcdef'[i % 6]}x${i}AAAA (attempt ${i}) failed: database or disk is full`);
      log(`formsign limits: could not record API usage (database or disk is full); retrying with the next flush`);
      t += 400;
    }
    // 20 s: at 0, at 10 s and at 20 s for each of the two kinds.
    assert.equal(lines.length, 4, lines.join('\n'));
    assert.match(lines[2]!, /\(24 more since the last warning\)$/);
    assert.equal(kindOfLine('job job_AbCdEf12 failed after 3.5 s'), kindOfLine('job job_ZZZZZZ99 failed after 12 s'));
    assert.notEqual(kindOfLine('claiming failed: disk full'), kindOfLine('claiming failed: connection refused'));
  });
});
