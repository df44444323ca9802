// The pages' own browser scripts (issue 36 item 5) are TypeScript: `src/http/pages/<page>/assets/*.ts`,
// type-checked by tsconfig.pages.json (DOM, no Node) and compiled for the browser, one file each, no
// bundling (each loads what it needs by the hashed addresses the page's config gives it). This is the
// one place that says how: scripts/build.mjs writes the compiled file beside the others in dist/, and a
// server running from src/ (tsx: tests, `npm run dev`) compiles the source on first use the same way.
// Plain JavaScript so build.mjs can import it without tsx.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** A page script's source: a `.ts` (not `.d.ts`) file directly in a page's `assets/` folder. */
export function isPageScript(file) {
  return /[\\/]http[\\/]pages[\\/][^\\/]+[\\/]assets[\\/][^\\/]+(?<!\.d)\.ts$/.test(file);
}

// Browsers of the last few years (module scripts with top-level await); characters kept as written.
const OPTIONS = { loader: 'ts', format: 'esm', target: 'es2022', charset: 'utf8', legalComments: 'inline' };

/** The browser's JavaScript for one page script's TypeScript. `esbuild` is the esbuild module. */
export function compilePageScript(esbuild, source, file) {
  return esbuild.transformSync(source, { ...OPTIONS, sourcefile: file }).code;
}

/**
 * A page script's bytes by its served name (`…/assets/sign.js`): the compiled file where the build
 * wrote one (dist/), else its TypeScript source compiled now (src/, run through tsx).
 */
export function readPageScript(jsUrl) {
  try {
    return fs.readFileSync(jsUrl);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  const ts = fileURLToPath(new URL(jsUrl.href.replace(/\.js$/, '.ts')));
  // Loaded only here: a built server (dist/) never compiles and never loads esbuild. Resolved from the
  // script's own place (this module's import.meta.url would name the bundle's chunk once bundled).
  const esbuild = createRequire(jsUrl)('esbuild');
  return Buffer.from(compilePageScript(esbuild, fs.readFileSync(ts, 'utf8'), ts));
}
