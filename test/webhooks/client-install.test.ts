import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { signatureHeader } from '../../src/domain/webhooks/signature.js';
import { createHarness, type Harness } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';
import { waitFor } from './support/receiver.js';
import { createWebhook, deliveriesOf } from './support/webhooks.js';

// The README's webhook receiver, as a newcomer meets it: a scratch folder outside the repository,
// `npm install <repository>/clients/typescript` (or the tarball of `npm run pack:client`), the snippet
// pasted into a file, compiled with strict TypeScript and run. Offline: the package must need nothing
// that a clone and its `npm ci` do not already hold.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NPM_QUIET = ['--offline', '--no-audit', '--no-fund', '--loglevel=error'];

/** The README's receiver: the JavaScript block that imports the client (plain `node` runs it). */
export function receiverSnippet(readme: string): string {
  const blocks = [...readme.matchAll(/^```(?:js|ts)\n([\s\S]*?)^```$/gm)].map((m) => m[1]!).filter((b) => b.includes("from '@formsign/client'"));
  assert.equal(blocks.length, 1, 'the README has one receiver snippet');
  return blocks[0]!;
}

function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} in ${cwd}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** A scratch project with the receiver compiled into it: what the README asks of a reader. */
function scratchApp(install: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-receiver-'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'receiver', private: true, type: 'module' }));
  run('npm', ['install', ...NPM_QUIET, install], dir);
  const installed = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  assert.ok(installed.dependencies['@formsign/client'], 'the client is a dependency of the scratch project');
  const snippet = receiverSnippet(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
  // The one change: the README's port 4000 would collide with other tests on a shared machine.
  assert.equal(snippet.split('.listen(4000)').length, 2, 'the snippet listens on 4000');
  // Run as written, with plain node (an ES module: the scratch project is `"type": "module"`).
  fs.writeFileSync(path.join(dir, 'receiver.js'), snippet.replace('.listen(4000)', '.listen(Number(process.env.PORT))'));
  return dir;
}

interface Receiver {
  url: string;
  lines: string[];
  child: ChildProcess;
}

async function startReceiver(dir: string): Promise<Receiver> {
  const port = 20_000 + Math.floor(Math.random() * 40_000);
  const child = spawn(process.execPath, ['receiver.js'], { cwd: dir, env: { ...process.env, PORT: String(port), WHSEC: secret.current }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => lines.push(...d.split('\n').filter(Boolean)));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const url = `http://127.0.0.1:${port}/hooks`;
  await waitFor('the receiver to listen', async () => {
    assert.equal(child.exitCode, null, `the receiver exited: ${stderr}`);
    return fetch(url, { method: 'POST', body: '{}' }).then(() => true, () => false);
  });
  return { url, lines, child };
}

const secret = { current: '' };

async function deliveredAndRefused(h: Harness, dir: string): Promise<void> {
  const webhook = await createWebhook(h, h.actors.aTest, 'http://127.0.0.1:1/placeholder', ['form.created']);
  secret.current = webhook.signing_secret;
  const receiver = await startReceiver(dir);
  try {
    const patched = await h.request({ method: 'PATCH', url: `/api/v1/webhooks/${webhook.id}`, as: h.actors.aTest, json: { url: receiver.url } });
    assert.equal(patched.status, 200, patched.body);
    // A real delivery: the server's worker signs the form.created event and posts it.
    const created = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId } });
    assert.equal(created.status, 201, created.body);
    const formId = created.json<{ id: string }>().id;
    await waitFor('the delivery', async () => (await deliveriesOf(h, h.actors.aTest, webhook.id)).some((d) => d.status === 'succeeded'));
    const [delivery] = await deliveriesOf(h, h.actors.aTest, webhook.id);
    assert.equal(delivery!.last_status_code, 204, 'the receiver verified the signature and answered 204');
    assert.ok(receiver.lines.includes(`form.created ${formId}`), `the receiver printed the event: ${receiver.lines.join(' | ')}`);

    // Refusals: a changed body, another secret's signature, no signature, a stale timestamp.
    const body = Buffer.from(JSON.stringify({ object: 'event', id: 'evt_x', type: 'form.signed', data: { object: { id: 'form_x' } } }));
    const now = Math.floor(Date.now() / 1000);
    const post = (b: Buffer, headers: Record<string, string>) => fetch(receiver.url, { method: 'POST', body: b, headers }).then((r) => r.status);
    assert.equal(await post(body, { 'service-signature': signatureHeader(body, [secret.current], now) }), 204, 'a good signature is accepted');
    assert.ok(receiver.lines.includes('form.signed form_x'));
    const tampered = Buffer.from(body.toString().replace('form_x', 'form_y'));
    assert.equal(await post(tampered, { 'service-signature': signatureHeader(body, [secret.current], now) }), 400, 'a changed body is refused');
    assert.equal(await post(body, { 'service-signature': signatureHeader(body, ['whsec_someone_else'], now) }), 400, "another secret's signature is refused");
    assert.equal(await post(body, {}), 400, 'no signature is refused');
    assert.equal(await post(body, { 'service-signature': signatureHeader(body, [secret.current], now - 3600) }), 400, 'an hour-old timestamp is refused');
    assert.ok(!receiver.lines.includes('form.signed form_y'));
  } finally {
    receiver.child.kill();
  }
}

let templateId = '';

describe("the README's webhook receiver, from a scratch folder", () => {
  let h: Harness;
  const scratch: string[] = [];
  before(async () => {
    h = await createHarness('sqlite', { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
    templateId = await seedTemplate(h, h.actors.aTest.partition, 'Lease', '2026-01-01T00:00:00.000Z');
    await h.deps.worker.start();
  });
  after(async () => {
    await h.close();
    for (const d of scratch) fs.rmSync(d, { recursive: true, force: true });
  });

  it('npm install <repository>/clients/typescript builds the package (prepare); the snippet compiles, verifies a real delivery and refuses bad ones', async () => {
    const dir = scratchApp(path.join(ROOT, 'clients/typescript'));
    scratch.push(dir);
    assert.ok(fs.existsSync(path.join(dir, 'node_modules/@formsign/client/dist/index.d.ts')), 'prepare built the declarations');
    await deliveredAndRefused(h, dir);
  });

  it('the tarball of npm run pack:client installs offline with no dependency and works the same', async () => {
    const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-pack-'));
    scratch.push(packDir);
    run('npm', ['run', '--silent', 'pack:client', '--', '--pack-destination', packDir, '--loglevel=error'], ROOT);
    const [tarball] = fs.readdirSync(packDir);
    assert.match(tarball!, /^formsign-client-\d+\.\d+\.\d+\.tgz$/);
    const listing = run('tar', ['-tzf', path.join(packDir, tarball!)], packDir).split('\n');
    for (const f of ['package/dist/index.js', 'package/dist/index.d.ts', 'package/dist/vendor/openapi-fetch.js', 'package/dist/vendor/openapi-fetch.LICENSE', 'package/README.md']) assert.ok(listing.includes(f), `the tarball holds ${f}`);
    assert.ok(!listing.some((f) => f.startsWith('package/src/')), 'sources stay out of the tarball');
    const dir = scratchApp(path.join(packDir, tarball!));
    scratch.push(dir);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'node_modules')).filter((n) => !n.startsWith('.')), ['@formsign'], 'nothing else was installed');
    await deliveredAndRefused(h, dir);
  });
});
