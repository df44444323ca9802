// Loaded by `npm test` (--import) in the runner and in every test file's process: each test and hook
// gets a time limit unless it sets its own, so a deadlock fails that test instead of hanging the run.
//
// Why not `--test-timeout`: on Node 20 it limits each test *file* as a whole, and a file of slow,
// healthy tests would fail. Why Node's internals (--expose-internals): wrapping `it` would make every
// failure report the wrapper as the test's location; giving the default where Node builds a test keeps
// the locations true. Should a Node release move these internals, the run goes on without the limit
// and says so.
//
// Plain JavaScript: worker threads inherit --import and load this without tsx's loader.
import { createRequire } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const LIMIT_MS = Number(process.env.TEST_TIMEOUT_MS ?? 600_000);

const withLimit = (options) => {
  const o = options !== null && typeof options === 'object' ? options : {};
  return o.timeout === undefined ? { ...o, timeout: LIMIT_MS } : o;
};

function install() {
  const { Test, Suite } = createRequire(import.meta.url)('internal/test_runner/test');
  const isSuite = (factory) => factory === Suite || (typeof factory === 'function' && factory.prototype instanceof Suite);
  const createSubtest = Test.prototype.createSubtest;
  // Node accepts (name, options, fn) with name and options each optional; a suite keeps no limit
  // of its own (its tests have theirs).
  Test.prototype.createSubtest = function (factory, name, options, fn, overrides) {
    if (isSuite(factory)) return createSubtest.call(this, factory, name, options, fn, overrides);
    if (typeof name === 'function') [fn, options, name] = [name, undefined, undefined];
    else if (name !== null && typeof name === 'object') [fn, options, name] = [options, name, undefined];
    else if (typeof options === 'function') [fn, options] = [options, undefined];
    return createSubtest.call(this, factory, name, withLimit(options), fn, overrides);
  };
  const createHook = Test.prototype.createHook;
  Test.prototype.createHook = function (name, fn, options) {
    return createHook.call(this, name, fn, withLimit(options));
  };
}

// Tests run on the main thread of each test file's process; the PDF pool's and the checkpointer's
// threads have none, and the runner itself (the process started with --test) must not limit whole files.
if (isMainThread && !process.execArgv.includes('--test')) {
  try {
    install();
  } catch (error) {
    if (process.env.NODE_TEST_CONTEXT === undefined) {
      process.stderr.write(`npm test: no per-test time limit on this Node (${error.message}); a hung test will hang the run.\n`);
    }
  }
}
