#!/usr/bin/env node
// The package's `formsign` bin, and what `npm start` and `npm run formsign` run: the compiled
// JavaScript in dist/ (`npm install` builds it), rebuilt first only when a file in src/ is newer than
// the build, which a stat of each source file tells in a few milliseconds (and, for `serve`, the
// dashboard in web/dist/ when web/ changed). Tests and `npm run dev`
// run src/ through tsx instead.
import { buildIfStale } from '../scripts/build.mjs';

// As `node --enable-source-maps`: stack traces name the TypeScript files and lines.
process.setSourceMapsEnabled(true);
await buildIfStale();
// `serve` (`npm start`) also checks the dashboard's build, in this process rather than a second node
// (issue 36 item 3): the check hashes web/'s sources in a few milliseconds and builds only if they changed.
if (process.argv[2] === 'serve') await (await import('../scripts/build-web.mjs')).buildWeb({ ifStale: true });
// The bundle of dist/ (scripts/build.mjs, bundleEntry): the same code in ~30 files instead of ~500.
await import('../dist/bundle/main.js');
