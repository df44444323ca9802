import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createHarness, type Harness } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';

// The README's "Idempotent requests" and "Events API" examples, run as written against a server.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

function shellBlocksBetween(from: string, to: string): string[] {
  const section = README.slice(README.indexOf(from), README.indexOf(to));
  assert.ok(section.length > 0, `README has ${from} before ${to}`);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-o', 'pipefail', '-c', script], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('README: Idempotent requests and Events API', () => {
  let h: Harness;
  let base: string;
  let dir: string;
  before(async () => {
    h = await createHarness('sqlite');
    base = await h.app.listen({ port: 0, host: '127.0.0.1' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-readme-idem-'));
  });
  after(async () => {
    await h.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the examples run as written and show what the text says', async () => {
    const templateId = await seedTemplate(h, h.actors.aTest.partition, 'Lease', new Date().toISOString());
    const [idem, reused] = shellBlocksBetween('## Idempotent requests', '## Events API');
    const [events] = shellBlocksBetween('## Events API', '## The job worker');
    const env = { FORMSIGN_KEY: h.actors.aTest.key, BASE: base, TEMPLATE_ID: templateId };
    const r = await bash(`${idem}\necho @@reused\n${reused}\necho\necho @@events\n${events}`, dir, env);
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    const [replay, conflict, listed] = r.stdout.split(/@@reused\n|@@events\n/);
    assert.match(replay!, /^idempotent-replayed: true\r?$/m);
    const forms = await h.deps.database.db.selectFrom('forms').select('id').where('name', '=', 'Once only').execute();
    assert.equal(forms.length, 1, 'two attempts, one form');
    assert.equal(JSON.parse(conflict!).error.code, 'idempotency_key_reused');
    // Three JSON documents back to back: the page of two, the filtered page, the one event.
    const docs = listed!.trim().split(/(?<=\})(?=\{"object")/).map((d) => JSON.parse(d) as { object: string; data?: Array<{ type: string }>; id?: string });
    assert.equal(docs.length, 3, listed);
    assert.equal(docs[0]!.object, 'list');
    assert.deepEqual([...new Set(docs[1]!.data!.map((e) => e.type))], ['form.created']);
    assert.equal(docs[2]!.object, 'event');
  });
});
