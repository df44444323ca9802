// How a test starts a TypeScript entry point in a child process (`formsign serve`, a worker, a helper
// script under test/). Under the test runner (scripts/run-tests.ts sets FORMSIGN_TEST_RUN) the child runs
// compiled code, as every test process does: src/main.ts as `node bin/formsign.js`, exactly as `npm start`
// and the README run it (dist/, built by the runner for this run), and a script under test/ from
// .test-build/ (compiled by the runner for this run). Through tsx a child cost 2–4 s of CPU more to
// start (it transpiles src/ on every start), and the suite starts some forty of them. Run by hand
// (`node --import tsx --test test/x.test.ts`), where dist/ and .test-build/ may be stale, the child
// runs the sources through tsx as before.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const compiled = process.env.FORMSIGN_TEST_RUN !== undefined;

/**
 * Node's arguments to run `entry` (relative to the repository: `src/main.ts` or `test/…/x.ts`, or an
 * absolute path to a .ts/.mjs file) followed by `args`.
 */
export function nodeEntry(entry: string, ...args: string[]): string[] {
  if (!compiled) return ['--import', 'tsx', entry, ...args];
  const rel = path.isAbsolute(entry) ? path.relative(ROOT, entry) : entry;
  if (rel === 'src/main.ts') return [path.join(ROOT, 'bin', 'formsign.js'), ...args];
  if (rel.startsWith('test/') && rel.endsWith('.ts')) return ['--enable-source-maps', path.join(ROOT, '.test-build', rel.replace(/\.ts$/, '.js')), ...args];
  return ['--import', 'tsx', entry, ...args];
}

/** `startChild`'s and `spawn`'s arguments with a leading `--import tsx ENTRY` replaced by `nodeEntry(ENTRY)`. */
export function compiledArgs(args: readonly string[]): string[] {
  if (args[0] === '--import' && args[1] === 'tsx' && args[2] !== undefined) return nodeEntry(args[2], ...args.slice(3));
  return [...args];
}
