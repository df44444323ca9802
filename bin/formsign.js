#!/usr/bin/env node
// The package's `formsign` bin, and what `npm start` and `npm run formsign` run: the compiled
// JavaScript in dist/ (`npm install` builds it), rebuilt first only when a file in src/ is newer than
// the build, which a stat of each source file tells in a few milliseconds (and, for `serve`, the
// dashboard in web/dist/ when web/ changed). Tests and `npm run dev`
// run src/ through tsx instead.
import { existsSync } from 'node:fs';
import { buildIfStale } from '../scripts/build.mjs';

// As `node --enable-source-maps`: stack traces name the TypeScript files and lines — for the processes
// that log (serve, worker). A one-shot command skips it: reading the bundle's maps costs a tenth of
// its run (issue 36 item 3), and its errors are one sentence, not a stack.
if (process.argv[2] === 'serve' || process.argv[2] === 'worker') process.setSourceMapsEnabled(true);
await buildIfStale();
// `serve` (`npm start`) also checks the dashboard's build, in this process rather than a second node
// (issue 36 item 3): the check hashes web/'s sources in a few milliseconds and builds only if they changed.
// A shipped build (the container image) has web/dist but neither web/'s sources nor the build script:
// it is up to date by definition, as scripts/build.mjs treats a build without src/.
const webSources = existsSync(new URL('../web/src', import.meta.url)) && existsSync(new URL('../scripts/build-web.mjs', import.meta.url));
if (process.argv[2] === 'serve' && webSources) await (await import('../scripts/build-web.mjs')).buildWeb({ ifStale: true });
// The bundle of dist/ (scripts/build.mjs, bundleEntry): the same code in ~30 files instead of ~500.
await import('../dist/bundle/main.js');
