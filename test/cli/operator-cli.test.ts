import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { DIALECTS, PG_URL } from '../harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../../shared/fixtures/pdfs/', import.meta.url));

function cli(env: Record<string, string>, ...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/formsign.js', ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: <T = Record<string, unknown>>() => JSON.parse(r.stdout) as T };
}

/** A fresh store for a process under test: a temp DATA_DIR, plus a new database for PostgreSQL. */
async function freshStore(dialect: string, prefix: string): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `formsign-${prefix}-`));
  const env: Record<string, string> = { DATA_DIR: dir, LOG_LEVEL: 'warn' };
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
      assert.equal(m.json<{ dialect: string }>().dialect, dialect);

      const acct = cli(env, 'accounts', 'create', '--name', 'Acme', '--email', 'ops@acme.test', '--json');
      assert.equal(acct.code, 0, acct.stderr);
      const account = acct.json<{ id: string; plan: string; name: string }>();
      assert.match(account.id, /^acct_[0-9A-Za-z]{24}$/);
      assert.equal(account.plan, 'trial');

      const key = cli(env, 'keys', 'create', '--account', account.id, '--mode', 'live', '--label', 'prod', '--json').json<{ id: string; key: string; display: string }>();
      assert.match(key.key, /^fk_live_[0-9a-f]{32}$/);
      assert.equal(key.display, `fk_live_…${key.key.slice(-4)}`);

      const list = cli(env, 'keys', 'list', '--account', account.id, '--json').json<{ data: Array<{ id: string; revoked_at: string | null; key?: string }> }>();
      assert.equal(list.data.length, 1);
      assert.equal(list.data[0]!.id, key.id);
      assert.equal(list.data[0]!.key, undefined, 'the secret is never listed');

      const plan = cli(env, 'accounts', 'set-plan', account.id, 'paid', '--json');
      assert.equal(plan.json<{ plan: string }>().plan, 'paid');
      const limits = cli(env, 'accounts', 'set-limits', account.id, '--monthly', '50000', '--per-minute', '900', '--json').json<{ monthly_limit: number; per_minute_limit: number }>();
      assert.deepEqual([limits.monthly_limit, limits.per_minute_limit], [50000, 900]);

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
      assert.match(u.stderr, /Usage: formsign/);
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
        second.stop();
        await second.exited;
      } finally {
        await fresh.drop();
      }
    });
  });
}

async function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', r));
  const deadline = Date.now() + 30_000;
  while (!/Health:/.test(output)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const port = Number(/listening on http:\/\/[^:]+:(\d+)/.exec(output)![1]);
  return { output, port, exited, stop: () => child.kill('SIGTERM') };
}
