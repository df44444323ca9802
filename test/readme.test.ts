import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

// The README is the first thing a person runs: its shell blocks must parse, and every file they name
// (and every file the README links to) must be in the repository, so they work from a fresh clone.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The fenced blocks tagged sh, bash or shell, with the line each starts on. */
export function shellBlocks(markdown: string): Array<{ line: number; code: string }> {
  const blocks: Array<{ line: number; code: string }> = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(sh|bash|shell)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    assert.ok(end < lines.length, `README.md:${start}: a shell block is never closed`);
    blocks.push({ line: start, code: lines.slice(start, end).join('\n') });
    i = end;
  }
  return blocks;
}

// Paths the README's commands read: tokens under a top-level folder of the repository, or with a
// file extension. Words after -o, -D, > and tee are files the commands write, not read.
const DIRS = /^(\.\/)?(\.ci|bench|bin|docs|examples|openapi|scripts|src|test)\//;
const EXT = /\.(pdf|json|ya?ml|md|ts|js|sh)$/;

export function pathsIn(code: string): { reads: string[]; writes: string[] } {
  const reads: string[] = [];
  const writes: string[] = [];
  for (const raw of code.split('\n')) {
    // A comment is prose or sample output, not a command.
    const line = raw.replace(/(^|\s)#.*$/, '');
    const words = line.split(/[\s"'=@()]+/).filter(Boolean);
    words.forEach((word, i) => {
      const before = words[i - 1];
      if (word === '>' || word === '|') return;
      if (before === '-o' || before === '-D' || before === '>' || before === 'tee' || word.startsWith('>')) {
        writes.push(word.replace(/^>/, ''));
        return;
      }
      if (word.includes('$') || word.includes('://') || word.startsWith('/') || word.startsWith('-')) return;
      if (DIRS.test(word) || EXT.test(word)) reads.push(word.replace(/^\.\//, ''));
    });
  }
  return { reads, writes };
}

describe('README', () => {
  const blocks = shellBlocks(README);

  it('has shell blocks, and each parses (bash -n)', () => {
    assert.ok(blocks.length >= 8, `found ${blocks.length} shell blocks`);
    for (const b of blocks) {
      const r = spawnSync('bash', ['-n'], { input: b.code, encoding: 'utf8' });
      assert.equal(r.status, 0, `README.md:${b.line}: ${r.stderr}`);
    }
  });

  it('every file its commands read is in the repository (files they write first excepted)', () => {
    const written = new Set(blocks.flatMap((b) => pathsIn(b.code).writes));
    const named = blocks.flatMap((b) => pathsIn(b.code).reads.map((p) => ({ p, line: b.line })));
    assert.ok(named.some((n) => n.p.startsWith('test/fixtures/pdfs/')), 'the examples use the fixtures');
    for (const { p, line } of named) {
      if (written.has(p)) continue;
      assert.ok(fs.existsSync(path.join(ROOT, p)), `README.md:${line}: ${p} is not in the repository`);
    }
  });

  it('every relative link points at a file in the repository', () => {
    const links = [...README.matchAll(/\]\(([^)#\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));
    assert.ok(links.includes('docs/architecture.md') && links.includes('LICENSE'));
    for (const l of links) assert.ok(fs.existsSync(path.join(ROOT, l)), `README.md links to ${l}, which is not in the repository`);
  });

  it('the path finder sees reads and writes', () => {
    const { reads, writes } = pathsIn('curl -F "file=@test/fixtures/pdfs/a.pdf" -o filled.pdf | tee t.json  # see docs/x.md\nbash .ci/run > out.yaml');
    assert.deepEqual(reads, ['test/fixtures/pdfs/a.pdf', '.ci/run']);
    assert.deepEqual(writes, ['filled.pdf', 't.json', 'out.yaml']);
  });
});
