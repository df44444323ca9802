import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prettyLogStream } from '../../src/cli/pretty-log.js';

function run(lines: object[]): string {
  let out = '';
  const stream = prettyLogStream({ write: (t: string) => (out += t) });
  for (const l of lines) stream.write(`${JSON.stringify(l)}\n`);
  return out;
}

const time = new Date(2026, 10, 24, 9, 5, 7).getTime();
const id = 'req_0123456789abcdef0123456789abcdef';

describe('pretty log lines', () => {
  it('one line per request: time, method, path, status, ms, request id', () => {
    const out = run([
      { level: 30, time, msg: 'incoming request', request_id: id, req: { method: 'POST', url: '/api/v1/forms' } },
      { level: 30, time, msg: 'request completed', request_id: id, res: { statusCode: 201 }, responseTime: 4.237 },
      { level: 30, time, msg: 'incoming request', request_id: 'req_2', req: { method: 'GET', url: '/api/v1/templates?limit=2' } },
      { level: 30, time, msg: 'request completed', request_id: 'req_2', res: { statusCode: 200 }, responseTime: 31.6 },
    ]);
    assert.equal(out, `09:05:07  POST /api/v1/forms  201  4.2 ms  ${id}\n09:05:07  GET /api/v1/templates?limit=2  200  32 ms  req_2\n`);
  });

  it('the listening line is left to the banner; warnings and errors keep their message, errors their stack', () => {
    const out = run([
      { level: 30, time, msg: 'Server listening at http://127.0.0.1:3000' },
      { level: 40, time, msg: 'slow client cut off', request_id: id },
      { level: 50, time, msg: 'boom', err: { message: 'bad', stack: 'Error: bad\n    at x (y.ts:1:1)' } },
    ]);
    assert.equal(out, `09:05:07  warn: slow client cut off  ${id}\n09:05:07  error: boom\n  Error: bad\n    at x (y.ts:1:1)\n`);
  });

  it('a line that is not JSON passes through', () => {
    let out = '';
    prettyLogStream({ write: (t: string) => (out += t) }).write('plain text');
    assert.equal(out, 'plain text\n');
  });
});
