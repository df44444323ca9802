// src/pdf is split by area; the boundaries hold by this check, not by care. A module may import its
// own area, shared/ and field.ts; another area only through that area's index.ts; and code outside
// src/pdf may import src/pdf/index.ts (and field.ts, the shared vocabulary) only.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PDF = join(ROOT, 'src/pdf');
const IMPORT = /(?:from|import)\s*\(?\s*'(\.[^']+)'/g;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : filesUnder(p);
    return /\.(ts|mjs)$/.test(e.name) ? [p] : [];
  });
}

function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts'));
}

const areaOf = (file: string): string => relative(PDF, file).split('/').length > 1 ? relative(PDF, file).split('/')[0]! : '';

describe('src/pdf areas', () => {
  it('reach each other only through an index.ts', () => {
    const wrong: string[] = [];
    for (const file of filesUnder(PDF)) {
      const from = areaOf(file);
      for (const target of importsOf(file)) {
        if (!target.startsWith(PDF)) continue;
        const to = areaOf(target);
        const ok = to === from || to === 'shared' || [join(PDF, 'field.ts'), join(PDF, 'work.ts')].includes(target) || from === '' || target.endsWith('/index.ts');
        if (!ok) wrong.push(`${relative(ROOT, file)} → ${relative(ROOT, target)}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('shared/ depends on no area', () => {
    const wrong = filesUnder(join(PDF, 'shared')).flatMap((file) =>
      importsOf(file).filter((t) => t.startsWith(PDF) && !['shared', ''].includes(areaOf(t))).map((t) => `${relative(ROOT, file)} → ${relative(ROOT, t)}`));
    assert.deepEqual(wrong, []);
  });

  it('code outside src/pdf imports only src/pdf/index.ts or field.ts', () => {
    const allowed = new Set([join(PDF, 'index.ts'), join(PDF, 'field.ts')]);
    const wrong = filesUnder(join(ROOT, 'src')).filter((f) => !f.startsWith(PDF)).flatMap((file) =>
      importsOf(file).filter((t) => t.startsWith(PDF) && !allowed.has(t)).map((t) => `${relative(ROOT, file)} → ${relative(ROOT, t)}`));
    assert.deepEqual(wrong, []);
  });
});
