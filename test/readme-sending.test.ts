import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createSampleTemplate } from '../src/domain/templates/import-template.js';
import { createHarness, type Harness } from './harness.js';
import { freePort } from './shared/free-port.js';
import { pdfsig } from './shared/pdf-tools.js';
import { blocksOfSection } from './shared/readme-blocks.js';
import { SIGN_HEADERS, strokePng } from './signing/support.js';

// The README's sending examples pasted in order into one shell, as a reader would after "A first form":
// send, sign (the one step a person does in a browser; here through the signing page's own calls),
// the signed PDF and pdfsig, the Arabic send, order/reminders/decline/void, signer checks, the completed
// copy, a bulk send from a CSV, a form from a description, the webhooks section with its JavaScript receiver (plain `node`)
// verifying a test event, embed origins, idempotent requests and the events feed.
// What the reader changes is what they paste: the key, the address, the sample template's id; the
// receiver's port is a free one here. Commands that start the server (`… npm start`) are the server
// this test runs, with the same settings.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

const SECTIONS: Array<[string, string]> = [
  ['## Send it, sign it, get the signed PDF', "## Signers' languages"],
  ["## Signers' languages", '## After sending: order, reminders, decline, void'],
  ['## After sending: order, reminders, decline, void', '## Who signed: signer checks'],
  ['## Who signed: signer checks', '## Roles, your message and your brand'],
  ['## Roles, your message and your brand', '## The completed copy and notices'],
  ['## The completed copy and notices', '## Evidence'],
  ['## Bulk send', '## Data retention and deletion'],
  ['## Forms from a description', '## Webhooks'],
  ['## Webhooks', '## Embedded signing'],
  ['## Embedded signing', '## Idempotent requests'],
  ['## Idempotent requests', '## Events API'],
  ['## Events API', '## The job worker'],
];

/** One bash, fed a block at a time: each block's output, and the shell's variables kept between them. */
class Shell {
  private out = '';
  private err = '';
  private exited: number | null = null;
  private readonly child: ChildProcessWithoutNullStreams;
  private n = 0;
  constructor(cwd: string, env: NodeJS.ProcessEnv) {
    this.child = spawn('bash', ['-e', '-o', 'pipefail'], { cwd, env, detached: true });
    this.child.stdout.setEncoding('utf8').on('data', (d: string) => (this.out += d));
    this.child.stderr.setEncoding('utf8').on('data', (d: string) => (this.err += d));
    this.child.on('exit', (code) => (this.exited = code ?? -1));
  }

  /** Runs the code; its standard output. A failing command (bash -e) fails the test with its stderr. */
  async run(code: string, label: string): Promise<string> {
    const marker = `@@done ${++this.n}@@`;
    const from = this.out.length;
    this.child.stdin.write(`${code}\necho '${marker}'\n`);
    const deadline = Date.now() + 90_000;
    while (!this.out.includes(marker, from)) {
      if (this.exited !== null) assert.fail(`${label}: the shell stopped (exit ${this.exited}):\n${this.out.slice(from)}\n${this.err}`);
      if (Date.now() > deadline) assert.fail(`${label}: no end after 90 s:\n${this.out.slice(from)}\n${this.err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.out.slice(from, this.out.indexOf(marker, from));
  }

  /** Everything printed since the start (a background job's lines come in between). */
  get all(): string {
    return this.out;
  }

  close(): void {
    // The shell and its background jobs (the receiver) are one process group.
    if (this.exited === null && this.child.pid) process.kill(-this.child.pid, 'SIGTERM');
  }
}

describe("README's sending and webhook examples, run in order against a server", () => {
  let h: Harness;
  let shell: Shell;
  let dir: string;
  const outputs: Array<{ line: number; code: string; out: string }> = [];
  let formSigned = '';

  before(async () => {
    // The quick start's setting for a receiver on this machine; deliveries to other hosts go nowhere.
    // BASE_URL is the address listened on: the signed PDF's redirect (curl -L) goes there.
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    h = await createHarness('sqlite', { env: { BASE_URL: base, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCALE: '0.001' }, webhookResolver: async () => [{ address: '127.0.0.1', family: 4 }] });
    await h.app.listen({ port, host: '127.0.0.1' });
    await h.deps.worker.start();
    const sample = await createSampleTemplate(h.deps.domain, h.actors.aTest.partition);
    const receiverPort = await freePort();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-readme-send-'));
    for (const d of ['test', 'examples']) fs.symlinkSync(path.join(ROOT, d), path.join(dir, d));
    shell = new Shell(dir, { ...process.env, DATA_DIR: h.dataDir, LOG_LEVEL: 'silent', PORT: '' });
    // What the reader has from the quick start: the key and address exported, `npm run formsign` in
    // the clone (here the same bin, on this server's store).
    await shell.run([
      `export FORMSIGN_KEY=${h.actors.aTest.key}`,
      `export BASE=${base}`,
      `npm() { if [ "$1 $2 $3 $4" = "run --silent formsign --" ]; then shift 4; node ${JSON.stringify(path.join(ROOT, 'bin/formsign.js'))} "$@"; else echo "npm $* is not part of this walk-through" >&2; return 1; fi; }`,
    ].join('\n'), 'preamble');

    for (const [from, to] of SECTIONS) {
      for (const b of blocksOfSection(README, from, to)) {
        if (/^[^#\n]*\bnpm start\b/m.test(b.code)) {
          assert.match(b.code, /^WEBHOOK_ALLOW_PRIVATE_NETWORKS=true npm start$/, `README.md:${b.line}: the only server start skipped is the one this test's server stands for`);
          continue;
        }
        let code = b.code.replace('TEMPLATE_ID=tmpl_...', `TEMPLATE_ID=${sample.id}`).replaceAll('127.0.0.1:4000', `127.0.0.1:${receiverPort}`);
        if (code.includes('node examples/webhook-receiver.mjs &')) code = code.replace('node examples/webhook-receiver.mjs &', `PORT=${receiverPort} node examples/webhook-receiver.mjs &`);
        // Step 7 needs step 6 done: the recipient signs, the worker seals.
        if (code.includes('signed-pdf" -H') && !formSigned) formSigned = await signForm(h, (await shell.run('echo "$FORM_ID"', 'FORM_ID')).trim());
        outputs.push({ line: b.line, code: b.code, out: await shell.run(code, `README.md:${b.line}`) });
      }
    }
  });
  after(async () => {
    shell?.close();
    await h?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const outputOf = (needle: string): string => {
    const o = outputs.find((x) => x.code.includes(needle));
    assert.ok(o, `a block has ${needle}`);
    return o.out;
  };

  it('sends the sample form, and after the signature downloads a signed PDF that pdfsig finds valid', () => {
    assert.match(outputOf('"name":"Ada Lovelace"}]}'), /"status":"sent"/);
    assert.match(outputOf('outbox messages\n'), /invite email to ada@example\.com/);
    assert.match(outputOf('pdfsig signed.pdf'), /Signature is Valid\./);
    assert.match(pdfsig(fs.readFileSync(path.join(dir, 'signed.pdf'))), /Signature is Valid\./);
  });

  it('the typed name\'s styles, asked of the signing link as the page asks (issue 43 item 7)', () => {
    assert.match(outputOf('/signature-styles"'), /^dancing kaushan kristi$/m);
  });

  it('the Arabic send goes to a form of its own (no 409 on the signed one)', () => {
    const out = outputOf('"locale":"ar"');
    assert.doesNotMatch(out, /"error"/);
    assert.match(out, /"status":"sent"/);
    assert.match(out, /"name":"ليلى حسن"/);
    assert.match(out, /signers whose recipient and browser name no language we have read de/);
  });

  it('order, reminders, the remind limit, events, decline webhook, void and the void refused', () => {
    assert.match(outputOf('"signing_order":"sequential"'), /"status":"waiting"/);
    const remind = outputOf('retry-after');
    assert.match(remind, /HTTP\/1\.1 429/);
    assert.match(outputOf('e.type).join'), /^form\.reminded form\.sent form\.created$/m);
    assert.match(outputOf('"events":["form.declined","form.voided","form.reminded"]'), /"object":"webhook"/);
    const voided = outputOf('Wrong rent amount');
    assert.match(voided, /"status":"voided"/);
    assert.match(voided, /"code":"form_not_voidable"/);
  });

  it('the signer checks send to a new form: four sends (e-mail, SMS, access code, and at Finish with a meaning), no error', () => {
    const out = outputOf('"method":"access_code"');
    assert.doesNotMatch(out, /"error"/);
    assert.equal(out.match(/"object":"form"/g)?.length, 4);
    assert.match(out, /"meaning":"Approved"/);
  });

  it('roles, the message and the brand (issue 42): a signer, an approver waiting its turn and a cc told at once; the accent darkened, the SVG cleaned', () => {
    assert.match(outputOf('"role":"approver"'), /^signer sent, approver waiting, cc sent$/m);
    assert.match(outputOf('Your lease, ready to sign') + outputOf('outbox messages   # Ada'), /invite email to ada@example\.com[\s\S]*Your lease, ready to sign[\s\S]*invite email to office@example\.com/);
    assert.match(outputOf('/api/v1/branding'), /^#ffcc00 -> #856a00 \(5\.17:1\); removed: onload \(event handler\)$/m);
  });

  it('the completed-copy send and the notification address', () => {
    assert.match(outputOf('"completed_copy":false'), /"status":"sent"/);
    assert.match(outputOf('set-notify'), /notices go to contracts@example\.com/);
  });

  it('a bulk send from a CSV: the bad row reported by number, the others sent, and the bulk send listed', () => {
    const out = outputOf('-F file=@leases.csv');
    assert.match(out, /"object":"bulk_send","id":"bulk_[0-9A-Za-z]{24}","mode":"test"/);
    assert.match(out, /"total":3,"sent":2,"failed":1/);
    assert.match(out, /"object":"bulk_send_row","row":1,"status":"sent","form_id":"form_/);
    assert.match(outputOf('bulk-sends?limit=5'), /\{"object":"list","data":\[\{"object":"bulk_send","id":"bulk_[0-9A-Za-z]{24}","mode":"test"[^}]*"total":3,"sent":2,"failed":1/);
  });

  it('a form from a description (the built-in generator), the unmatched prefill key named', () => {
    const out = outputOf('/api/v1/forms/generate');
    assert.match(out, /^HTTP\/1\.1 201/m);
    assert.match(out, /^x-service-prefill-unmatched: nickname\r?$/im);
  });

  it('embed origins, an idempotent create replayed and a reused key refused, the events feed', () => {
    assert.match(outputOf('"origin":"http://localhost:5173"'), /"object":"embed_origin"/);
    assert.match(outputOf('cmp answer-1.json answer-2.json'), /^idempotent-replayed: true\r?$/im);
    assert.match(outputOf('"name":"Something else"'), /"code":"idempotency_key_reused"/);
    const events = outputOf('EVENT_ID=');
    assert.match(events, /"object":"event","id":"evt_/);
    assert.doesNotMatch(events, /"error"/);
  });

  it('webhooks: the JavaScript receiver runs with plain node and verifies the test event; a form expires', async () => {
    assert.match(outputOf('"events":["form.signed","form.expired"]'), /"signing_secret":"whsec_/);
    assert.match(outputOf('examples/webhook-receiver.mjs &'), /"event_type":"webhook\.test"/);
    const deadline = Date.now() + 20_000;
    while (!/verified webhook\.test evt_/.test(shell.all) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.match(shell.all, /listening on http:\/\/127\.0\.0\.1:\d+\//);
    assert.match(shell.all, /verified webhook\.test evt_[A-Za-z0-9]{24}/);
    assert.doesNotMatch(shell.all, /refused:/);
    assert.match(outputOf('/expire"'), /"status":"expired"/);
  });
});

/** Step 6 of the README, as the signing page does it: the one recipient signs; the seal follows. */
async function signForm(h: Harness, formId: string): Promise<string> {
  assert.match(formId, /^form_/);
  const form = await h.request({ url: `/api/v1/forms/${formId}`, as: h.actors.aTest });
  const url = form.json<{ recipients: Array<{ signing_url: string }> }>().recipients[0]!.signing_url;
  const token = new URL(url).pathname.split('/').pop()!;
  const signed = await h.app.inject({
    method: 'POST', url: `/sign/${token}`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json', 'user-agent': 'ReadmeTest/1.0' },
    payload: JSON.stringify({ values: { full_name: 'Ada Lovelace', signature: { image: strokePng(), method: 'drawn' } }, consent: true }),
  });
  assert.equal(signed.statusCode, 200, signed.body);
  for (let i = 0; i < 200; i++) {
    const now = await h.request({ url: `/api/v1/forms/${formId}`, as: h.actors.aTest });
    if (now.json<{ status: string }>().status === 'signed') return formId;
    await new Promise((r) => setTimeout(r, 100));
  }
  return assert.fail(`${formId} was not sealed within 20 s`);
}
