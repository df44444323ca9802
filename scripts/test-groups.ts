// Which group each test file runs in (npm run test:unit | test:integration | test:browser), by path
// patterns, so files need not move. Every test/**/*.test.ts must be in exactly one group: `classify`
// throws otherwise, and the runner calls it before running anything, so a new file is never silently
// skipped.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export type GroupName = 'unit' | 'integration' | 'browser';

// The PDF tests that need no external tool (qpdf, poppler) and no worker pool.
const PURE_PDF = 'test/pdf/{areas,option-text,page-geometry,wrap-lines-words,bidi-layout}.test.ts';
// Files in the integration folders that are in-process and quick.
const UNIT_ELSEWHERE = [
  'test/cli/pretty-log.test.ts',
  'test/dashboard/passwords.test.ts',
  'test/generate/{builtin,layout}.test.ts',
  'test/limits/{sliding-window,access-log-route-level}.test.ts',
  'test/outbox/compose-message.test.ts',
  'test/signing/signing-rules.test.ts',
  'test/webhooks/verify-webhook.test.ts',
  'test/messages/compose-kinds.test.ts',
];
const BROWSER = 'test/**/*browser.test.ts';

/**
 * A pattern starting with `!` takes matching files out of that group again.
 * - unit: in-process and quick: no server socket, no database, no browser, no child process, no PDF
 *   tool or worker pool.
 * - browser: Chromium through playwright-core.
 * - integration: the rest (SQLite and PostgreSQL, servers, child processes, PDF tools).
 */
export const GROUPS: Record<GroupName, readonly string[]> = {
  unit: ['test/unit/*.test.ts', '!test/unit/route-definition.test.ts', 'test/lib/*.test.ts', PURE_PDF, ...UNIT_ELSEWHERE],
  integration: [
    'test/{api,build,cli,dashboard,db,evidence,generate,limits,outbox,pages,pdf,providers,signing,webhooks}/*.test.ts',
    // After sending (issue #23).
    'test/lifecycle/*.test.ts',
    // Issue 26 (idempotency, events API).
    'test/integrators/*.test.ts',
    // Issue 27: operations (readiness, migrations, shutdown, metrics).
    'test/ops/*.test.ts',
    'test/*.test.ts',
    'test/messages/*.test.ts',
    // Issue 26's integrator-facing suites (probe's defects, embedded signing).
    'test/integrators/*.test.ts',
    'test/unit/route-definition.test.ts',
    // Issue 27: the cluster under faults (child processes on PostgreSQL, Redis, S3).
    'test/cluster/*.test.ts',
    // Issue 39: teams (roles, members, invitations, activity log).
    'test/teams/*.test.ts',
    // Issue 42: recipient roles, the sender's message, branding.
    'test/sending/*.test.ts',
    ...[BROWSER, PURE_PDF, ...UNIT_ELSEWHERE].map((p) => `!${p}`),
  ],
  browser: [BROWSER],
};

// path.matchesGlob is marked experimental on Node 20 and 22; its one warning is noise in a test run.
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  if (!String(warning).includes('glob')) (emitWarning as (...a: unknown[]) => void)(warning, ...rest);
}) as typeof process.emitWarning;

function inGroup(file: string, patterns: readonly string[]): boolean {
  let inside = false;
  for (const p of patterns) {
    if (p.startsWith('!')) {
      if (path.matchesGlob(file, p.slice(1))) inside = false;
    } else if (path.matchesGlob(file, p)) inside = true;
  }
  return inside;
}

/** Every test file, as a path relative to the repository with forward slashes. */
export function testFiles(): string[] {
  return fs
    .readdirSync(path.join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
    .map((f) => path.posix.join('test', f.split(path.sep).join('/')))
    .filter((f) => f.endsWith('.test.ts'))
    .sort();
}

export class TestGroupError extends Error {
  override name = 'TestGroupError';
}

/** The files of each group; throws naming every file in no group or in more than one. */
export function classify(files: readonly string[], groups: Record<GroupName, readonly string[]> = GROUPS): Record<GroupName, string[]> {
  const byGroup: Record<GroupName, string[]> = { unit: [], integration: [], browser: [] };
  const problems: string[] = [];
  for (const file of files) {
    const found = (Object.keys(groups) as GroupName[]).filter((g) => inGroup(file, groups[g]));
    if (found.length === 1) byGroup[found[0]!].push(file);
    else problems.push(found.length === 0 ? `${file} is in no test group` : `${file} is in several test groups (${found.join(', ')})`);
  }
  if (problems.length > 0) throw new TestGroupError(`${problems.join('\n')}\nPut it in exactly one group in scripts/test-groups.ts.`);
  return byGroup;
}
