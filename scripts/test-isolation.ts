// Which test files may share a process with other files (scripts/run-tests.ts runs those in batches,
// scripts/test-batch.mjs) and which run in a process of their own, as every file did before.
//
// The rule, checked in the source of the file and of the test/ modules it imports: a file runs alone
// when it changes what the next file in its process would see —
//   - process.env (assignment, delete, Object.assign), a global (`globalThis.x =`, `global.x =`),
//     undici's global dispatcher;
//   - timers or methods through node:test's `mock` (mock.timers, mock.method, …);
//   - the process itself: process.on/once/…(listeners), chdir, umask, exit, exitCode;
// or when it says so with the comment `// test-runner: own-process` (say why on the same line).
// The batch checks again at run time (environment, globals, working directory) and stops at a file
// that changed them; that file's name is printed so it can be marked.
import fs from 'node:fs';
import path from 'node:path';

export const OWN_PROCESS_MARK = 'test-runner: own-process';

const RULES: [RegExp, string][] = [
  [/\bprocess\.env(\.[\w$]+|\[[^\]]+\])\s*(=(?!=)|\+=|\?\?=|\|\|=)/, 'assigns to process.env'],
  [/\bdelete\s+process\.env\b|Object\.assign\(\s*process\.env\b/, 'changes process.env'],
  [/\b(globalThis|global)\.[\w$]+\s*=(?!=)|Object\.defineProperty\(\s*(globalThis|global)\b/, 'replaces a global'],
  [/\bsetGlobalDispatcher\(/, "replaces undici's global dispatcher"],
  [/\bmock\.(timers|method|getter|setter|module)\b/, "mocks through node:test's process-wide mock"],
  [/\bprocess\.(on|once|addListener|prependListener|prependOnceListener|chdir|umask|exit|setUncaughtExceptionCaptureCallback)\(|\bprocess\.exitCode\s*=/, 'changes the process (listeners, directory, exit)'],
];

/** Why `source` must run in a process of its own, or undefined when it may share one. */
export function ownProcessReason(source: string): string | undefined {
  if (source.includes(OWN_PROCESS_MARK)) return `marked \`${OWN_PROCESS_MARK}\``;
  // Comments say what code does without doing it.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  for (const [pattern, why] of RULES) if (pattern.test(code)) return why;
  return undefined;
}

const RELATIVE_IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"`;]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/**
 * Why the test file (relative to `root`) must run alone: its own source or that of a module under
 * test/ it imports, directly or not, breaks the rule. Modules outside test/ (src/) are the product, which
 * reads the environment only through its configuration and is checked by its own lint rules.
 */
export function fileOwnProcessReason(root: string, file: string): string | undefined {
  const seen = new Set<string>();
  const testDir = path.join(root, 'test') + path.sep;
  const visit = (abs: string): string | undefined => {
    if (seen.has(abs)) return undefined;
    seen.add(abs);
    let source: string;
    try {
      source = fs.readFileSync(abs, 'utf8');
    } catch {
      return undefined;
    }
    const why = ownProcessReason(source);
    if (why) return abs === path.join(root, file) ? why : `${path.relative(root, abs)} ${why}`;
    for (const m of source.matchAll(RELATIVE_IMPORT)) {
      const spec = m[1] ?? m[2]!;
      const target = path.resolve(path.dirname(abs), spec).replace(/\.js$/, '.ts');
      if (target.startsWith(testDir)) {
        const found = visit(target);
        if (found) return found;
      }
    }
    return undefined;
  };
  return visit(path.join(root, file));
}
