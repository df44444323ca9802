// Compiles src/ to dist/: ES modules with their declarations (tsc), for `import '@formsign/embed'` and
// `@formsign/embed/react`. The server builds its own one-file copy for /embed.js from the same source.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(path.join(pkg, 'package.json'));
fs.rmSync(path.join(pkg, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(pkg, 'tsconfig.json')], { stdio: 'inherit' });
