// Child-process entry for worker-launch.test.ts: inspects one fixture and prints a summary.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPdfInspector } from '../../../src/pdf/index.js';
import { FIXTURE_DIR } from './fixtures.js';

// The production heap bound (deps.ts PDF_JOB_HEAP_MB): under tsx the worker also holds the
// transpiler and the transpiled sources of every PDF job, which outgrew 128 MB.
const inspector = createPdfInspector({ timeoutMs: 10_000, maxOldGenerationSizeMb: 256 });
const r = await inspector.inspect(readFileSync(join(FIXTURE_DIR, 'openoffice_form_example.pdf')));
process.stdout.write(JSON.stringify({ fields: r.fields.length, execArgv: process.execArgv }));
// Without close() the process must still exit: an idle worker does not hold the event loop.
if (!process.argv.includes('--leave-open')) await inspector.close();
