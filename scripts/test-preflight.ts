// Run by `npm test` before the tests: what the suite needs from the machine, checked up front, so a
// missing piece is one line saying what to install or set instead of many failing tests.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { checkPostgres } from '../src/cli/postgres-check.js';

const problems: string[] = [];

// The runtime floor of the dependencies (pdfjs-dist, @redocly/cli, pkijs: ^20.19 || >=22.12).
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (!(major === 20 ? minor >= 19 : major === 22 ? minor >= 12 : major > 22)) {
  problems.push(`Node.js ${process.versions.node} is too old: the tests need 20.19+ or 22.12+.`);
}

const onPath = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0;
const missingTools = ['qpdf', 'pdftotext', 'pdftoppm', 'pdfsig'].filter((t) => !onPath(t));
if (missingTools.length > 0) {
  problems.push(`${missingTools.join(', ')} not found: install the Debian packages qpdf and poppler-utils (apt-get install qpdf poppler-utils).`);
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  problems.push(`Chromium not found at ${chromium} (the browser tests drive it): apt-get install chromium, or set CHROMIUM_PATH.`);
}

const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const pg = await checkPostgres(url, { create: true, variable: 'TEST_DATABASE_URL' });
if (!pg.ok) problems.push(`${pg.problem} (Every integration test also runs on PostgreSQL: \`bash .ci/run\` starts one here, or run \`TEST_DATABASE_URL=postgres://user:password@host:5432/db npm test\`.)`);

if (problems.length > 0) {
  process.stderr.write(`npm test cannot run here yet:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
  process.exit(1);
}
