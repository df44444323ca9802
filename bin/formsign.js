#!/usr/bin/env node
// The package's `formsign` bin, and what `npm start` and `npm run formsign` run: the compiled
// JavaScript in dist/ (`npm install` builds it), rebuilt first only when a file in src/ is newer than
// the build, which a stat of each source file tells in a few milliseconds. Tests and `npm run dev`
// run src/ through tsx instead.
import { buildIfStale } from '../scripts/build.mjs';

// As `node --enable-source-maps`: stack traces name the TypeScript files and lines.
process.setSourceMapsEnabled(true);
await buildIfStale();
await import('../dist/main.js');
