import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { MigrationLockTimeoutError, sqliteMigrationLock } from '../../src/db/migration-lock.js';
import { migrations } from '../../src/db/database.js';
import { DIALECTS, PG_URL, type DialectName } from '../harness.js';
import { startChild, waitFor, type Child } from '../outbox/support/processes.js';

// `formsign migrate` applies the migrations and exits; two at once never race: the second waits for
// the first's lock (PostgreSQL: the migrator's advisory lock; SQLite: an exclusive transaction on
// DATA_DIR/migrate.lock), says so once, and then finds nothing left to apply. MIGRATE_ON_START=off
// makes every other command refuse a database that is behind, naming `formsign migrate`.

const ALL = Object.keys(migrations).sort();
const KYSELY_PG_LOCK_ID = '3853314791062309107';

/** A fresh, unmigrated store that child processes open by environment alone. */
async function freshStore(dialect: DialectName) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-migrate-'));
  const env: Record<string, string> = { DATA_DIR: dir, LOG_LEVEL: 'warn' };
  let dbName: string | undefined;
  if (dialect === 'postgres') {
    dbName = `formsign_migrate_${process.pid}_${Date.now()}`;
    await admin(PG_URL, `create database ${dbName}`);
    const u = new URL(PG_URL);
    u.pathname = `/${dbName}`;
    env['DATABASE_URL'] = u.toString();
  }
  return {
    env,
    dir,
    async drop() {
      fs.rmSync(dir, { recursive: true, force: true });
      if (dbName) await admin(PG_URL, `drop database ${dbName} with (force)`);
    },
  };
}

async function admin(url: string, text: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

const cli = (args: string[], env: Record<string, string>): Child => startChild(['--import', 'tsx', 'src/main.ts', ...args], env);

interface Report { dialect: string; applied: string[] }
const reportOf = (c: Child): Report => JSON.parse(c.stdout()) as Report;

for (const dialect of DIALECTS) {
  describe(`formsign migrate (${dialect})`, () => {
    const stores: Array<{ drop(): Promise<void> }> = [];
    after(async () => {
      for (const s of stores) await s.drop();
    });

    it('two migrators started together: both exit 0, one applies every migration, the other waits and finds none left', async () => {
      const store = await freshStore(dialect);
      stores.push(store);
      const a = cli(['migrate', '--json'], store.env);
      const b = cli(['migrate', '--json'], store.env);
      assert.deepEqual([await a.exited, await b.exited], [0, 0], `${a.stderr()}\n${b.stderr()}`);
      const applied = [reportOf(a).applied, reportOf(b).applied].sort((x, y) => y.length - x.length);
      assert.deepEqual(applied[0]!.slice().sort(), ALL, 'one applied them all');
      assert.deepEqual(applied[1], [], 'the other found nothing left');
      // A third run: up to date, in words a person reads.
      const c = cli(['migrate'], store.env);
      assert.equal(await c.exited, 0, c.stderr());
      assert.equal(c.stdout().trim(), `Database (${dialect}) is up to date; nothing to apply.`);
    });

    it('while another process holds the lock, migrate says it waits, waits, and applies once the lock is free', async () => {
      const store = await freshStore(dialect);
      stores.push(store);
      let release: () => Promise<void>;
      if (dialect === 'postgres') {
        const holder = new pg.Client({ connectionString: store.env['DATABASE_URL'] });
        await holder.connect();
        await holder.query(`select pg_advisory_lock(${KYSELY_PG_LOCK_ID})`);
        release = () => holder.end();
      } else {
        let done!: () => void;
        const held = new Promise<void>((r) => (done = r));
        let taken!: () => void;
        const isTaken = new Promise<void>((r) => (taken = r));
        const holding = sqliteMigrationLock(path.join(store.dir, 'migrate.lock'), () => undefined).hold(async () => {
          taken();
          await held;
        });
        await isTaken;
        release = async () => {
          done();
          await holding;
        };
      }
      const child = cli(['migrate', '--json'], store.env);
      await waitFor('the waiting message', () => /another process is migrating this (PostgreSQL|SQLite) database .*waiting for it to finish\./.test(child.stderr()), 60_000).catch((e: unknown) => {
        throw new Error(`${String(e)}; it said: ${child.stdout()} ${child.stderr()}`);
      });
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(child.proc.exitCode, null, 'still waiting while the lock is held');
      await release();
      assert.equal(await child.exited, 0, child.stderr());
      assert.deepEqual(reportOf(child).applied.slice().sort(), ALL);
      assert.equal(child.stderr().match(/another process is migrating/g)?.length, 1, 'said once');
    });

    it('MIGRATE_ON_START=off: a command on a database that is behind refuses, naming `formsign migrate`; after it, the command runs', async () => {
      const store = await freshStore(dialect);
      stores.push(store);
      const env = { ...store.env, MIGRATE_ON_START: 'off' };
      const refused = cli(['accounts', 'list'], env);
      assert.equal(await refused.exited, 1);
      assert.match(refused.stderr(), /^The database lacks \d+ migration\(s\) this version needs \(0001_initial, .*\) and MIGRATE_ON_START=off: run `formsign migrate` first\.\n$/);
      const migrate = cli(['migrate'], env);
      assert.equal(await migrate.exited, 0, migrate.stderr());
      const listed = cli(['accounts', 'list'], env);
      assert.equal(await listed.exited, 0, listed.stderr());
      assert.equal(listed.stdout().trim(), 'No accounts.');
    });
  });
}

describe('SQLite migration lock held too long', () => {
  it('a second migrator gives up after its wait, naming the lock file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-migrate-lock-'));
    const file = path.join(dir, 'migrate.lock');
    let done!: () => void;
    const held = new Promise<void>((r) => (done = r));
    let taken!: () => void;
    const isTaken = new Promise<void>((r) => (taken = r));
    const first = sqliteMigrationLock(file, () => undefined).hold(async () => {
      taken();
      await held;
    });
    await isTaken;
    const waits: string[] = [];
    let ran = false;
    await assert.rejects(
      sqliteMigrationLock(file, (l) => void waits.push(l), 300).hold(async () => {
        ran = true;
      }),
      (e: unknown) => e instanceof MigrationLockTimeoutError && e.message.includes(file) && /gave up waiting/.test(e.message),
    );
    assert.equal(ran, false, 'nothing migrated without the lock');
    assert.equal(waits.length, 1);
    done();
    await first;
    // Free again: the next one takes it at once.
    assert.equal(await sqliteMigrationLock(file, () => undefined).hold(async () => 'ran'), 'ran');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
