import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { DIALECTS, PG_URL } from '../harness.js';
import { nodeEntry } from '../shared/node-entry.js';
import { seedServiceCertificate } from '../shared/service-certificate.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/pdfs/', import.meta.url));

function cli(env: Record<string, string>, ...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/formsign.js', ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8', timeout: 60_000 });
  // The slow-unit warning says how busy the machine was (a loaded test run), not what the command did.
  const stderr = r.stderr.replace(/^formsign: warning: a unit of work held the SQLite group commit for .*\n/gm, '');
  return { code: r.status, stdout: r.stdout, stderr, json: <T = Record<string, unknown>>() => JSON.parse(r.stdout) as T };
}

/** A fresh store for a process under test: a temp DATA_DIR, plus a new database for PostgreSQL. */
async function freshStore(dialect: string, prefix: string): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `formsign-${prefix}-`));
  const env: Record<string, string> = { DATA_DIR: dir, LOG_LEVEL: 'warn' };
  seedServiceCertificate(dir);
  let dbName: string | undefined;
  if (dialect === 'postgres') {
    dbName = `formsign_${prefix}_${process.pid}_${Date.now()}`;
    await pgAdmin(`create database ${dbName}`);
    const u = new URL(PG_URL);
    u.pathname = `/${dbName}`;
    env['DATABASE_URL'] = u.toString();
  }
  return {
    env,
    async drop() {
      fs.rmSync(dir, { recursive: true, force: true });
      if (dbName) await pgAdmin(`drop database ${dbName} with (force)`);
    },
  };
}

async function pgAdmin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

for (const dialect of DIALECTS) {
  describe(`operator CLI (${dialect})`, () => {
    let env: Record<string, string>;
    let store: Awaited<ReturnType<typeof freshStore>>;
    before(async () => {
      store = await freshStore(dialect, 'cli');
      env = store.env;
    });
    after(() => store.drop());

    it('migrate, accounts, keys and templates import, with --json', () => {
      const m = cli(env, 'migrate', '--json');
      assert.equal(m.code, 0, m.stderr);
      const migrated = m.json<{ dialect: string; applied: string[] }>();
      assert.equal(migrated.dialect, dialect);
      assert.ok(migrated.applied.length >= 7, `a fresh store gets every migration: ${migrated.applied.join(', ')}`);
      assert.equal(migrated.applied[0], '0001_initial');
      assert.deepEqual(cli(env, 'migrate', '--json').json<{ applied: string[] }>().applied, [], 'nothing left to apply');
      assert.equal(cli(env, 'migrate').stdout, `Database (${dialect}) is up to date; nothing to apply.\n`);

      // The operator's own account, as made without options: paid, no monthly quota (issue 37).
      const own = cli(env, 'accounts', 'create', '--name', 'Owner', '--json');
      assert.equal(own.code, 0, own.stderr);
      const owner = own.json<{ id: string; plan: string; unmetered: boolean; monthly_limit: number | null }>();
      assert.deepEqual([owner.plan, owner.unmetered, owner.monthly_limit], ['paid', true, null]);
      assert.match(cli(env, 'accounts', 'create', '--name', 'Owner 2').stdout, /\(Owner 2, paid, no monthly quota\)/);
      const metered = cli(env, 'accounts', 'create', '--name', 'Metered', '--plan', 'trial', '--monthly', '500', '--json').json<{ plan: string; unmetered: boolean; monthly_limit: number | null }>();
      assert.deepEqual([metered.plan, metered.unmetered, metered.monthly_limit], ['trial', false, 500]);
      assert.equal(cli(env, 'accounts', 'create', '--name', 'x', '--monthly', 'lots').code, 2, '--monthly takes a number, default or none');

      const acct = cli(env, 'accounts', 'create', '--name', 'Acme', '--email', 'ops@acme.test', '--plan', 'trial', '--monthly', 'default', '--json');
      assert.equal(acct.code, 0, acct.stderr);
      const account = acct.json<{ id: string; plan: string; name: string; unmetered: boolean }>();
      assert.match(account.id, /^acct_[0-9A-Za-z]{24}$/);
      assert.equal(account.plan, 'trial');
      assert.equal(account.unmetered, false);

      const accounts = cli(env, 'accounts', 'list', '--json').json<{ data: Array<{ id: string; name: string; plan: string }> }>();
      assert.deepEqual(accounts.data.filter((a) => a.name === 'Acme').map((a) => [a.id, a.name, a.plan]), [[account.id, 'Acme', 'trial']]);
      assert.match(cli(env, 'accounts', 'list').stdout, new RegExp(`^${account.id}  trial  Acme  <ops@acme.test>$`, 'm'));

      const created = cli(env, 'keys', 'create', '--account', account.id, '--mode', 'live', '--label', 'prod', '--json');
      const key = created.json<{ id: string; key: string; display: string }>();
      assert.match(key.key, /^fk_live_[0-9a-f]{32}$/);
      assert.equal(
        created.stderr,
        `warning: account ${account.id} is on the trial plan: this live key gets 402 plan_required until \`npm run --silent formsign -- accounts set-plan ${account.id} paid\`\n`,
      );
      assert.equal(key.display, `fk_live_…${key.key.slice(-4)}`);

      const list = cli(env, 'keys', 'list', '--account', account.id, '--json').json<{ data: Array<{ id: string; revoked_at: string | null; key?: string }> }>();
      assert.equal(list.data.length, 1);
      assert.equal(list.data[0]!.id, key.id);
      assert.equal(list.data[0]!.key, undefined, 'the secret is never listed');

      const plan = cli(env, 'accounts', 'set-plan', account.id, 'paid', '--json');
      assert.equal(plan.json<{ plan: string }>().plan, 'paid');
      const paidKey = cli(env, 'keys', 'create', '--account', account.id, '--mode', 'live');
      assert.equal(paidKey.code, 0, paidKey.stderr);
      assert.equal(paidKey.stderr, '', 'no warning once the account is paid');
      const limits = cli(env, 'accounts', 'set-limits', account.id, '--monthly', '50000', '--per-minute', '900', '--json').json<{ monthly_limit: number; per_minute_limit: number }>();
      assert.deepEqual([limits.monthly_limit, limits.per_minute_limit], [50000, 900]);
      const unmetered = cli(env, 'accounts', 'set-limits', account.id, '--monthly', 'none', '--json').json<{ monthly_limit: number | null; unmetered: boolean }>();
      assert.deepEqual([unmetered.monthly_limit, unmetered.unmetered], [null, true]);
      assert.match(cli(env, 'accounts', 'set-limits', account.id, '--monthly', 'default').stdout, /monthly plan default, per minute 900/);

      const revoked = cli(env, 'keys', 'revoke', key.id, '--json').json<{ revoked_at: string | null }>();
      assert.ok(revoked.revoked_at);

      const imported = cli(env, 'templates', 'import', path.join(FIXTURES, 'osha_form_301_injury_report.pdf'), '--account', account.id, '--mode', 'test', '--name', 'OSHA 301', '--json');
      assert.equal(imported.code, 0, imported.stderr);
      const t = imported.json<{ id: string; name: string; fields: unknown[]; page_count: number }>();
      assert.equal(t.name, 'OSHA 301');
      assert.equal(t.fields.length, 31);
      assert.equal(t.page_count, 1);
    });

    it('errors: unknown account, bad arguments, unknown command', () => {
      const r = cli(env, 'keys', 'create', '--account', 'acct_nope', '--mode', 'test', '--json');
      assert.equal(r.code, 1);
      assert.equal(JSON.parse(r.stderr).error.code, 'resource_not_found');
      assert.equal(cli(env, 'keys', 'create', '--account', 'x', '--mode', 'prod').code, 2);
      const u = cli(env, 'frobnicate');
      assert.equal(u.code, 2);
      assert.match(u.stderr, /^unknown command 'frobnicate'\n\nUsage: formsign/);
      assert.match(cli(env, 'keys', 'frobnicate').stderr, /^unknown command 'keys frobnicate'\n/);
      const missing = cli(env, 'templates', 'import', 'no-such-file.pdf', '--account', 'acct_x', '--mode', 'test');
      assert.deepEqual([missing.code, missing.stderr], [1, 'File not found: no-such-file.pdf\n']);
      const bad = cli(env, 'accounts', 'create', '--name', 'x', '--colour', 'red');
      assert.equal(bad.code, 2);
    });

    it('an invalid variable stops the start, naming it', () => {
      for (const [k, v] of [['PORT', 'abc'], ['DATABASE_URL', 'mysql://x'], ['WEBHOOK_RETRY_SCALE', '-1']] as const) {
        const r = cli({ ...env, [k]: v }, 'serve');
        assert.equal(r.code, 2);
        assert.match(r.stderr, new RegExp(`^Invalid configuration: ${k} `));
      }
    });

    it('first start creates a demo account, prints the key and a curl that works; later starts print no key', async () => {
      const fresh = await freshStore(dialect, 'first');
      const e = { ...fresh.env, PORT: '0' };
      try {
        const first = await startServer(e);
        assert.match(first.output, /API key: {2}fk_test_[0-9a-f]{32}/);
        assert.match(first.output, /export FORMSIGN_KEY=fk_test_[0-9a-f]{32} BASE=http:\/\/localhost:\d+\n/);
        assert.match(first.output, /API reference: http:\/\/localhost:\d+\/docs/);
        const accountId = /account: {2}(acct_[0-9A-Za-z]{24})/.exec(first.output)![1]!;
        const key = /fk_test_[0-9a-f]{32}/.exec(first.output)![0];
        const templateId = /template: (tmpl_[0-9A-Za-z]{24})/.exec(first.output)![1];
        assert.match(first.output, /curl -s http:\/\/localhost:\d+\/api\/v1\/templates -H "Authorization: Bearer fk_test_/);
        const res = await fetch(`http://127.0.0.1:${first.port}/api/v1/templates`, { headers: { authorization: `Bearer ${key}` } });
        assert.equal(res.status, 200);
        const list = (await res.json()) as { data: Array<{ id: string; name: string }> };
        assert.deepEqual(list.data.map((t) => t.id), [templateId]);
        const form = await fetch(`http://127.0.0.1:${first.port}/api/v1/forms`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ template_id: templateId, prefill: { full_name: 'Ada Lovelace' } }),
        });
        assert.equal(form.status, 201);
        first.stop();
        await first.exited;
        const second = await startServer(e);
        assert.doesNotMatch(second.output, /fk_test_/);
        assert.match(second.output, new RegExp(`Account ${accountId} \\(Demo account, paid plan\\)`));
        assert.match(second.output, new RegExp(`npm run --silent formsign -- keys create --account ${accountId} --mode test\n`));
        second.stop();
        await second.exited;
      } finally {
        await fresh.drop();
      }
    });
  });
}

describe('operator CLI: messages a person can act on', () => {
  let store: Awaited<ReturnType<typeof freshStore>>;
  before(async () => (store = await freshStore('sqlite', 'msg')));
  after(() => store.drop());

  it('no command prints the usage (exit 2) instead of starting a server; help prints it on stdout', () => {
    const none = cli(store.env);
    assert.equal(none.code, 2);
    assert.equal(none.stdout, '');
    assert.match(none.stderr, /^Usage: formsign <command> \[--json\]\n {2}serve /);
    assert.match(none.stderr, /\n {2}accounts list\n/);
    const help = cli(store.env, 'help');
    assert.equal(help.code, 0);
    assert.equal(help.stdout, none.stderr);
  });

  it('PORT out of range names the range', () => {
    for (const port of ['abc', '70000', '80.5']) {
      const r = cli({ ...store.env, PORT: port }, 'serve');
      assert.deepEqual([r.code, r.stderr], [2, 'Invalid configuration: PORT must be a whole number between 1 and 65535\n']);
    }
  });

  it('a port in use: one line naming another port, exit 1, no stack', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const r = cli({ ...store.env, PORT: String(port) }, 'serve');
      assert.equal(r.code, 1);
      assert.equal(r.stderr, `Port ${port} is in use; set PORT=${port + 1} (or another free port), e.g. PORT=${port + 1} npm start\n`);
    } finally {
      blocker.close();
    }
  });

  it('JSON log lines by default when stdout is not a terminal: stdout is only JSON, the banner is on stderr', async () => {
    const server = await startServer({ ...store.env, PORT: '0', LOG_LEVEL: 'info' });
    try {
      await fetch(`http://127.0.0.1:${server.port}/healthz`);
      await waitFor(() => /request completed/.test(server.stdout()));
      const lines = server.stdout().trim().split('\n');
      for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), line);
      // A loaded machine may print the group commit's slow-unit warning first; the banner is still stderr's.
      assert.match(server.stderr().replace(/^formsign: warning: .*\n/gm, ''), /^Formsign is listening on /);
    } finally {
      server.stop();
      await server.exited;
    }
  });

  it('LOG_FORMAT=pretty: the banner, then one short line per request', async () => {
    const server = await startServer({ ...store.env, PORT: '0', LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' });
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/healthz`);
      const id = res.headers.get('service-request-id');
      await waitFor(() => server.stdout().includes(id!));
      const out = server.stdout();
      assert.match(out, /^Formsign is listening on /, 'the banner comes first, with no JSON line before it');
      assert.doesNotMatch(out, /^\{/m);
      assert.match(out, new RegExp(`^\\d\\d:\\d\\d:\\d\\d {2}GET /healthz {2}200 {2}[\\d.]+ ms {2}${id}$`, 'm'));
    } finally {
      server.stop();
      await server.exited;
    }
  });

  it('PostgreSQL unreachable: the URL without its password and what to do', () => {
    const r = cli({ ...store.env, DATABASE_URL: 'postgres://formsign:s3cret@127.0.0.1:1/formsign' }, 'migrate');
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'Cannot reach PostgreSQL at postgres://formsign@127.0.0.1:1/formsign (connection refused: nothing listens there); start PostgreSQL there or set DATABASE_URL to one that runs.\n',
    );
  });

  it('PostgreSQL database missing: created on first use when the login may', async () => {
    const name = `formsign_created_${process.pid}_${Date.now()}`;
    const u = new URL(PG_URL);
    u.pathname = `/${name}`;
    try {
      const r = cli({ ...store.env, DATABASE_URL: u.toString() }, 'migrate', '--json');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, new RegExp(`^Created the database postgres://[^@]*@[^/]+/${name} \\(it did not exist\\)\\.\\n$`));
      assert.equal(r.json<{ dialect: string }>().dialect, 'postgres');
    } finally {
      await pgAdmin(`drop database if exists ${name} with (force)`);
    }
  });
});

async function waitFor(condition: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, nodeEntry('src/main.ts', 'serve'), { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', r));
  const deadline = Date.now() + 60_000;
  while (!/Health:/.test(stdout + stderr)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start:\n${stdout}${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const output = stdout + stderr;
  const port = Number(/listening on http:\/\/[^:]+:(\d+)/.exec(output)![1]);
  return { output, port, exited, stdout: () => stdout, stderr: () => stderr, stop: () => child.kill('SIGTERM') };
}
