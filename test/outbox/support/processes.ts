import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { loadConfig } from '../../../src/config.js';
import { createDeps, type Deps, type DepsOptions } from '../../../src/deps.js';
import { PG_URL, type DialectName, type Harness } from '../../harness.js';
import { compiledArgs } from '../../shared/node-entry.js';
import { seedServiceCertificate } from '../../shared/service-certificate.js';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** A store other processes can open by environment alone: a temp DATA_DIR, plus a new database on PostgreSQL. */
export async function processStore(dialect: DialectName, prefix: string, extra: Record<string, string> = {}, depsOptions: DepsOptions = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `formsign-${prefix}-`));
  const env: Record<string, string> = { DATA_DIR: dir, LOG_LEVEL: 'warn', ...extra };
  let dbName: string | undefined;
  if (dialect === 'postgres') {
    dbName = `formsign_${prefix}_${process.pid}_${Date.now()}`;
    await pgAdmin(`create database ${dbName}`);
    const u = new URL(PG_URL);
    u.pathname = `/${dbName}`;
    env['DATABASE_URL'] = u.toString();
  }
  seedServiceCertificate(dir, env);
  const deps = await createDeps(loadConfig(env), depsOptions);
  return {
    env,
    deps,
    /** seedTemplate and friends take a harness; they only use its deps. */
    asHarness: { deps } as unknown as Harness,
    async drop() {
      await deps.close();
      fs.rmSync(dir, { recursive: true, force: true });
      if (dbName) await dropDatabase(dbName);
    },
  };
}

/**
 * Drops a test database once the connections to it are gone. pg's pool.end() resolves before its
 * clients' sockets have closed; a forced drop at that moment terminates them, and the terminated
 * client's 'error' (with nobody listening any more) surfaces as an uncaught exception in the test
 * process. So: wait for the sessions to end (the killed child processes' too), force only as a last
 * resort.
 */
export async function dropDatabase(name: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      await pgAdmin(`drop database ${name}`);
      return;
    } catch (err) {
      if (!/being accessed by other users/.test(String(err))) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  await pgAdmin(`drop database ${name} with (force)`);
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

export interface Child {
  proc: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `args` as for node; a leading `--import tsx ENTRY` runs ENTRY compiled under the test runner (test/shared/node-entry.ts). */
export function startChild(args: string[], env: Record<string, string>): Child {
  const proc = spawn(process.execPath, compiledArgs(args), { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, stdout: () => out, stderr: () => err, exited };
}

export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 90_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export type { Deps };
