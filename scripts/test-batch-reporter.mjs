// The reporter of a batch (scripts/test-batch.mjs): one JSON line per file, once its suite has ended,
// with its counts and Node's own spec output for that file alone, so scripts/run-tests.ts prints and
// judges each file as if it had run in a process of its own.
import { spec } from 'node:test/reporters';
import { Readable } from 'node:stream';

const newSpec = () => (spec.prototype && typeof spec.prototype._transform === 'function' ? new spec() : spec());

async function specOutput(events) {
  let text = '';
  const out = Readable.from(events).pipe(newSpec());
  for await (const chunk of out) text += chunk;
  return text;
}

export default async function* batchReporter(source) {
  let events = [];
  let counts;
  const reset = () => {
    events = [];
    counts = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
  };
  reset();
  for await (const event of source) {
    const { type, data } = event;
    if (type === 'test:enqueue' || type === 'test:dequeue' || type === 'test:watch:drained') continue;
    // Node's summary of the whole process (nesting 0 diagnostics after the last file): not a file's.
    if (type === 'test:diagnostic' && data.nesting === 0) continue;
    if (type === 'test:plan' && data.nesting === 0) continue;
    events.push(event);
    if ((type === 'test:pass' || type === 'test:fail') && data.nesting > 0) {
      if (data.details?.type === 'suite') counts.suites++;
      else {
        counts.tests++;
        if (data.skip) counts.skipped++;
        else if (data.todo) counts.todo++;
        else if (type === 'test:pass') counts.pass++;
        else if (data.details?.error?.failureType === 'cancelledByParent') counts.cancelled++;
        else counts.fail++;
      }
    }
    if ((type === 'test:pass' || type === 'test:fail') && data.nesting === 0) {
      const output = await specOutput(events);
      yield `${JSON.stringify({ kind: 'report', file: data.name, ok: type === 'test:pass' && counts.fail === 0 && counts.cancelled === 0, counts, durationMs: data.details?.duration_ms, output })}\n`;
      reset();
    }
  }
}
