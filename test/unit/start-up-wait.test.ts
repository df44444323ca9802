import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createStartUpWait } from '../../src/lib/start-up-wait.js';

// Issue 35 item 5: a start-up step retried with backoff while its part is down, one line when the wait
// begins and one when it ends, the part named for /readyz meanwhile; other failures thrown at once.

const down = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
const transient = (err: unknown) => ((err as { code?: string }).code === 'ECONNREFUSED' ? { part: 'the database (PostgreSQL)', reason: 'connection refused' } : undefined);

describe('createStartUpWait', () => {
  it('retries until the step succeeds, names the part meanwhile, and logs one line each way', async () => {
    const lines: string[] = [];
    const wait = createStartUpWait({ transient, log: (l) => lines.push(l), firstDelayMs: 5, maxDelayMs: 20 });
    let attempts = 0;
    const seen: Array<readonly string[]> = [];
    const result = await wait.run(async () => {
      attempts++;
      seen.push(wait.waitingFor);
      if (attempts < 6) throw down;
      return 'migrated';
    });
    assert.equal(result, 'migrated');
    assert.equal(attempts, 6);
    assert.deepEqual(seen[0], []);
    assert.deepEqual(seen[5], ['the database (PostgreSQL)']);
    assert.deepEqual(wait.waitingFor, []);
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(lines[0]!, /^formsign: waiting for the database \(PostgreSQL\) \(connection refused\); start-up retries with backoff/);
    assert.match(lines[1]!, /^formsign: the database \(PostgreSQL\) is available again after [\d.]+ s \(5 failed attempts\)/);
  });

  it('throws a failure that waiting cannot cure at once, and stops naming the part', async () => {
    const lines: string[] = [];
    const wait = createStartUpWait({ transient, log: (l) => lines.push(l), firstDelayMs: 5 });
    let attempts = 0;
    await assert.rejects(
      wait.run(async () => {
        attempts++;
        if (attempts === 1) throw down;
        throw new Error('password authentication failed');
      }),
      /password authentication failed/,
    );
    assert.equal(attempts, 2);
    assert.deepEqual(wait.waitingFor, []);
    assert.equal(lines.length, 1);
  });
});
