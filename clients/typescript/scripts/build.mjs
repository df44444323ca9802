// Compiles src/ to dist/ (JavaScript and declarations) and ships openapi-fetch inside dist/vendor, so
// the package has no runtime dependency: `npm install ./clients/typescript`, or the tarball of
// `npm run pack:client`, installs with nothing to fetch (offline, behind a firewall, from a clone).
// openapi-fetch is one self-contained ES module whose types import only openapi-typescript-helpers'
// types; both are MIT-licensed, and their licences go with them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(pkg, 'dist');
const vendor = path.join(dist, 'vendor');
const require = createRequire(path.join(pkg, 'package.json'));

/** A module's folder, found as Node would from this package (here or in the repository's node_modules). */
function moduleDir(name) {
  let dir = path.dirname(require.resolve(name));
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
}

/** Replaces an import specifier in an emitted file, and fails if it is not there (a changed layout). */
function respecify(file, from, to) {
  const text = fs.readFileSync(file, 'utf8');
  const quoted = new RegExp(`(["'])${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\1`, 'g');
  if (!quoted.test(text)) throw new Error(`${path.relative(pkg, file)} does not import ${from}`);
  fs.writeFileSync(file, text.replace(quoted, `'${to}'`));
}

fs.rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(pkg, 'tsconfig.json')], { stdio: 'inherit' });

const fetchDir = moduleDir('openapi-fetch');
const helpersDir = moduleDir('openapi-typescript-helpers');
fs.mkdirSync(vendor, { recursive: true });
fs.copyFileSync(path.join(fetchDir, 'dist/index.mjs'), path.join(vendor, 'openapi-fetch.js'));
fs.copyFileSync(path.join(fetchDir, 'dist/index.d.mts'), path.join(vendor, 'openapi-fetch.d.ts'));
fs.copyFileSync(path.join(fetchDir, 'LICENSE'), path.join(vendor, 'openapi-fetch.LICENSE'));
fs.copyFileSync(path.join(helpersDir, 'dist/index.d.mts'), path.join(vendor, 'openapi-typescript-helpers.d.ts'));
fs.copyFileSync(path.join(helpersDir, 'LICENSE'), path.join(vendor, 'openapi-typescript-helpers.LICENSE'));
// The source map comment would name a file that is not shipped.
const vendoredJs = path.join(vendor, 'openapi-fetch.js');
fs.writeFileSync(vendoredJs, fs.readFileSync(vendoredJs, 'utf8').replace(/\n\/\/# sourceMappingURL=.*\s*$/, '\n'));

respecify(path.join(dist, 'client.js'), 'openapi-fetch', './vendor/openapi-fetch.js');
respecify(path.join(dist, 'client.d.ts'), 'openapi-fetch', './vendor/openapi-fetch.js');
respecify(path.join(vendor, 'openapi-fetch.d.ts'), 'openapi-typescript-helpers', './openapi-typescript-helpers.js');
console.log(`built ${path.relative(process.cwd(), dist) || dist} (openapi-fetch ${JSON.parse(fs.readFileSync(path.join(fetchDir, 'package.json'), 'utf8')).version} vendored)`);
