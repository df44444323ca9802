import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createHarness, type Harness } from './harness.js';
import { blocksOfSection, shellBlocks } from './shared/readme-blocks.js';

// The README is the first thing a person runs: its shell blocks must parse, and every file they name
// (and every file the README links to) must be in the repository, so they work from a fresh clone.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

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

function bash(script: string, cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail'], { cwd, timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject).on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(script);
  });
}

// "A first form, step by step", pasted block after block into one shell as a reader would, against a
// real server: each example must run as written after the ones before it (the only changes are the
// key and address the reader pastes in the first block).
describe("README's first form, run in sequence", () => {
  let h: Harness;
  let base: string;
  let dir: string;
  const out = new Map<number, string>();
  const blocks = blocksOfSection(README, '## A first form, step by step', '## Send it, sign it, get the signed PDF');

  before(async () => {
    h = await createHarness('sqlite');
    base = await h.app.listen({ port: 0, host: '127.0.0.1' });
    // "In the repository's folder": the files the examples read, without writing into the clone.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-readme-'));
    for (const d of ['test', 'examples']) fs.symlinkSync(path.join(ROOT, d), path.join(dir, d));
    const [first, ...rest] = blocks;
    assert.match(first!.code, /^export FORMSIGN_KEY=fk_test_\.\.\..*\nexport BASE=http:\/\/localhost:3000$/);
    const pasted = first!.code.replace('fk_test_...', h.actors.aTest.key).replace('http://localhost:3000', base);
    const script = [pasted, ...rest.map((b) => `printf '\\n@@block %d\\n' ${b.line}\n${b.code}`)].join('\n');
    // Not spawnSync: the server answers from this process's event loop.
    const r = await bash(script, dir);
    assert.equal(r.status, 0, `the walk-through failed:\n${r.stdout}\n${r.stderr}`);
    for (const part of r.stdout.split('\n@@block ').slice(1)) {
      const nl = part.indexOf('\n');
      out.set(Number(part.slice(0, nl)), part.slice(nl + 1));
    }
  });
  after(async () => {
    await h.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const outputOf = (needle: string): string => {
    const b = blocks.find((x) => x.code.includes(needle));
    assert.ok(b, `a block has ${needle}`);
    return out.get(b.line) ?? '';
  };
  const template = async (id: string) => h.request({ url: `/api/v1/templates/${id}`, as: h.actors.aTest });

  it('uploads the OSHA form, makes a form from it, downloads it and gets 304 for its etag', () => {
    const osha = JSON.parse(fs.readFileSync(path.join(dir, 'template.json'), 'utf8')) as { id: string; name: string; fields: unknown[] };
    assert.equal(osha.name, 'OSHA 301');
    assert.ok(osha.fields.length > 20);
    assert.equal(fs.readFileSync(path.join(dir, 'filled.pdf')).subarray(0, 5).toString(), '%PDF-');
    assert.match(outputOf('If-None-Match'), /^304$/m);
  });

  it('the flat PDF keeps its own id: the preview, PATCH and DELETE act on the contract, and the OSHA template is untouched', async () => {
    const osha = JSON.parse(fs.readFileSync(path.join(dir, 'template.json'), 'utf8')) as { id: string; fields: unknown[] };
    const contract = JSON.parse(fs.readFileSync(path.join(dir, 'contract.json'), 'utf8')) as { id: string; name: string; fields: Array<{ name: string }> };
    assert.notEqual(contract.id, osha.id);
    assert.deepEqual([contract.name, contract.fields.map((f) => f.name)], ['Contract', ['client', 'signature']]);
    assert.equal(fs.readFileSync(path.join(dir, 'preview.pdf')).subarray(0, 5).toString(), '%PDF-', 'the preview downloaded');

    // curl prints each answer without a newline: two JSON documents back to back.
    const [patched, deleted] = outputOf('-X DELETE').trim().split(/(?<=\})(?=\{"object")/).map((l) => JSON.parse(l) as { id: string; name?: string; deleted?: boolean; fields?: Array<{ required: boolean }> });
    assert.equal(patched!.id, contract.id);
    assert.equal(patched!.name, 'Contract 2026');
    assert.deepEqual(patched!.fields!.map((f) => f.required), [true, true]);
    assert.deepEqual(deleted, { object: 'template', id: contract.id, deleted: true });
    assert.equal((await template(contract.id)).status, 404);

    const still = await template(osha.id);
    assert.equal(still.status, 200);
    assert.equal(still.json<{ name: string; fields: unknown[] }>().name, 'OSHA 301');
    assert.deepEqual(still.json<{ fields: unknown[] }>().fields, osha.fields);
  });
});
