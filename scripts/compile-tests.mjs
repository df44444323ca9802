// Compiles the tests once per run, with esbuild, into `.test-build/`, so the test processes run plain
// JavaScript: no tsx in any test process or worker thread (tsx added 30–36 % to a typical file's CPU,
// and a PDF worker thread that loads tsx could miss its start-up limit on a busy machine).
//
// The tree mirrors the repository, so every relative import means the same module:
//   .test-build/test/**, scripts/**, clients/typescript/src/**  the .ts files compiled one to one
//                                     (other files there are symlinked to the originals)
//   .test-build/src           → ../dist (src/ compiled by scripts/build.mjs: the PDF pool starts
//                                       its threads on worker-job.js, as in production)
//   .test-build/node_modules  → ../node_modules
// In each compiled file `import.meta.url` (and `.dirname`, `.filename`) still name the source file,
// so a test that finds the repository, a fixture or a .ts child script from where it lives finds the
// same paths as under tsx. Inline source maps point stack traces at the .ts lines.
//
// `node scripts/compile-tests.mjs` builds; the runner (scripts/run-tests.ts) calls `compileTests()`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TEST_BUILD = path.join(ROOT, '.test-build');
const TREES = ['test', 'scripts', path.join('clients', 'typescript', 'src')];

function walk(dir, out) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

const compiled = (f) => f.endsWith('.ts') && !f.endsWith('.d.ts');

// The newest modification time and the number of files, as scripts/build.mjs stamps dist/.
function stampOf(files) {
  let newest = fs.statSync(fileURLToPath(import.meta.url)).mtimeMs;
  for (const f of files) newest = Math.max(newest, fs.statSync(f).mtimeMs);
  return `${files.length} ${newest}`;
}

/** Builds `.test-build/` (a second or so) unless it is up to date; returns its path. */
export async function compileTests() {
  const files = TREES.flatMap((t) => walk(path.join(ROOT, t), []));
  const stamp = stampOf(files);
  try {
    if (fs.readFileSync(path.join(TEST_BUILD, '.source-stamp'), 'utf8') === stamp) return TEST_BUILD;
  } catch {
    // Not built yet.
  }
  const esbuild = await import('esbuild');
  const tmp = `${TEST_BUILD}.${process.pid}.tmp`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  fs.writeFileSync(path.join(tmp, 'package.json'), '{ "type": "module" }\n');
  fs.symlinkSync(path.join('..', 'node_modules'), path.join(tmp, 'node_modules'));
  fs.symlinkSync(path.join('..', 'dist'), path.join(tmp, 'src'));
  await Promise.all(
    files.map(async (file) => {
      const rel = path.relative(ROOT, file);
      const out = path.join(tmp, rel);
      fs.mkdirSync(path.dirname(out), { recursive: true });
      if (!compiled(file)) {
        fs.symlinkSync(file, out);
        return;
      }
      const url = pathToFileURL(file).href;
      const { code } = await esbuild.transform(fs.readFileSync(file, 'utf8'), {
        loader: 'ts',
        format: 'esm',
        platform: 'node',
        target: 'node20',
        sourcemap: 'inline',
        sourcefile: file,
        define: { 'import.meta.url': JSON.stringify(url), 'import.meta.dirname': JSON.stringify(path.dirname(file)), 'import.meta.filename': JSON.stringify(file) },
      });
      fs.writeFileSync(out.replace(/\.ts$/, '.js'), code);
    }),
  );
  fs.writeFileSync(path.join(tmp, '.source-stamp'), stamp);
  // Swapped in by two renames, so a run already under way (another group's) finds whole files.
  const old = `${TEST_BUILD}.${process.pid}.old`;
  try {
    fs.renameSync(TEST_BUILD, old);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  fs.renameSync(tmp, TEST_BUILD);
  fs.rmSync(old, { recursive: true, force: true });
  return TEST_BUILD;
}

/** The compiled path of a test file named relative to the repository (`test/x/a.test.ts`). */
export function compiledPath(file) {
  return path.join(TEST_BUILD, file.replace(/\.ts$/, '.js'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const started = Date.now();
  await compileTests();
  process.stdout.write(`compiled the tests into ${path.relative(ROOT, TEST_BUILD)}/ in ${Date.now() - started} ms\n`);
}
