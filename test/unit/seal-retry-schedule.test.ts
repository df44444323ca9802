// The seal job's retries are described as "12 attempts over about a day" (README, form-seal.job.ts):
// the schedule must say the same, at both ends of the backoff's jitter.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { retryDelayMs } from '../../src/outbox/backoff.js';
import { formSeal } from '../../src/outbox/jobs/form-seal.job.js';

const HOUR = 3_600_000;
/** From the first attempt to the last, with the jitter's random() at `r`. */
const span = (r: number): number => {
  let total = 0;
  for (let attempt = 1; attempt < formSeal.retry.maxAttempts; attempt++) total += retryDelayMs(formSeal.retry, attempt, () => r);
  return total;
};

describe('the seal job retries 12 times over about a day', () => {
  it('12 attempts; the last 16 to 33 hours after the first, 24 on average; the first retry within minutes', () => {
    assert.equal(formSeal.retry.maxAttempts, 12);
    assert.ok(span(0) >= 16 * HOUR && span(0) <= 17 * HOUR, `shortest: ${span(0) / HOUR} h`);
    assert.ok(span(1) >= 32 * HOUR && span(1) <= 33 * HOUR, `longest: ${span(1) / HOUR} h`);
    assert.ok(Math.abs(span(0.5) - 24 * HOUR) < HOUR, `average: ${span(0.5) / HOUR} h`);
    assert.ok(retryDelayMs(formSeal.retry, 1, () => 1) <= 2 * 60_000, 'the first retry within two minutes');
  });
});
