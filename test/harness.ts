import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { threadFdatasync, type Fdatasync } from '../src/db/wal-sync.js';
import { createDeps, pdfPoolOptions, type Deps, type DepsOptions, type WorkerOptions } from '../src/deps.js';
import { createAccount, setAccountLimits } from '../src/domain/accounts/manage-accounts.js';
import { createApiKey } from '../src/domain/keys/manage-keys.js';
import type { HttpLimits } from '../src/http/plugins/slow-clients.js';
import type { Clock } from '../src/lib/clock.js';
import type { Partition } from '../src/lib/partition.js';
import { createPdfWork, type PdfWork } from '../src/pdf/index.js';
import type { Config } from '../src/config.js';
import type { Resolver } from '../src/providers/webhook-http/index.js';
import { assertConformsToContract } from './contract-check.js';
import { copyMigratedPgSchema, copyMigratedSqlite } from './shared/migrated-store.js';
import { seedServiceCertificate } from './shared/service-certificate.js';

export type DialectName = 'sqlite' | 'postgres';
export const DIALECTS: DialectName[] = ['sqlite', 'postgres'];
export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface Actor {
  key: string;
  keyId: string;
  partition: Partition;
}

export interface Harness {
  dialect: DialectName;
  app: FastifyInstance;
  deps: Deps;
  dataDir: string;
  /** A: paid account (test + live keys); B: trial account (test key); C: trial account with a live key. */
  actors: { aTest: Actor; aLive: Actor; bTest: Actor; cLive: Actor };
  request(opts: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  method?: string;
  url: string;
  /** An Actor's key, a raw Authorization value via headers, or none. */
  as?: Actor | undefined;
  json?: unknown;
  payload?: string | Buffer;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  rawPayload: Buffer;
  json<T = Record<string, unknown>>(): T;
}

/**
 * scrypt's cost in tests: 1 MiB and a few milliseconds a hash instead of production's 128 MiB and a
 * quarter of a second (which cost the dashboard tests ~100 s of CPU). Production has no setting for it.
 */
export const TEST_PASSWORD_COST = { N: 1024, r: 8, p: 1 } as const;

// In a batch of test files (scripts/test-batch.mjs sets this), every harness with the same pool
// settings shares one PDF pool for the process: its worker threads start once, not twice per file.
const sharedPools = new Map<string, PdfWork>();

// Every SQLite store a test opens flushes its WAL on the process's one flush thread (fdatasync of a
// descriptor is the process's, whichever thread calls it): a thread of its own per store cost ~40 ms
// of CPU to start, paid by every harness. Unref'd, so it never holds the process open.
let walFlush: Fdatasync | undefined;

/**
 * What every Deps a test makes gets: the test password cost, the process's WAL flush thread and, in a
 * batch, the process's PDF pool.
 */
export function testDepsOptions(config: Config): Pick<DepsOptions, 'passwordCost' | 'sharedPdfWork' | 'walFlush'> {
  const common = { passwordCost: TEST_PASSWORD_COST, walFlush: (walFlush ??= threadFdatasync()) };
  if (process.env.FORMSIGN_TEST_SHARED_PDF_POOL !== '1') return common;
  const options = pdfPoolOptions(config);
  const key = JSON.stringify(options);
  let work = sharedPools.get(key);
  if (!work) sharedPools.set(key, (work = createPdfWork(options)));
  return { ...common, sharedPdfWork: work };
}

/** A fresh store per harness: a temp DATA_DIR for SQLite, a new schema for PostgreSQL. */
export async function createHarness(
  dialect: DialectName,
  opts: {
    env?: Record<string, string>;
    clock?: Clock;
    logStream?: { write(line: string): void };
    authCacheMs?: number;
    limits?: Partial<HttpLimits>;
    webhookResolver?: Resolver;
    /** Keep the contract's per-minute windows for the three accounts (tests of the limits themselves). */
    contractLimits?: boolean;
    /** Job worker settings (the evidence tests shorten the seal job's retry schedule). */
    worker?: WorkerOptions;
    /** The PDF pool's bounds (a short deadline, a tight public CPU limit). */
    pdf?: DepsOptions['pdf'];
    /** Awaited by the seal job between signing the PDF and storing it (a test holds a seal there). */
    afterSeal?: (formId: string) => Promise<void>;
  } = {},
): Promise<Harness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `formsign-${dialect}-`));
  const pgSchema = dialect === 'postgres' ? await createPgSchema() : undefined;
  // In a run, the store starts migrated (a copy of the process's migrated template: test/shared/migrated-store.ts).
  if (RUN_ID && !opts.env?.DATABASE_URL && !opts.env?.DATA_DIR && !opts.env?.MIGRATE_ON_START) {
    if (pgSchema) await copyMigratedPgSchema(PG_URL, pgSchema, createPgSchema);
    else if (dialect === 'sqlite') await copyMigratedSqlite(RUN_ID, dataDir);
  }
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...(dialect === 'postgres' ? { DATABASE_URL: PG_URL } : {}), ...opts.env });
  seedServiceCertificate(dataDir, opts.env);
  const deps = await createDeps(config, { ...testDepsOptions(config), ...(pgSchema ? { pgSchema } : {}), ...(opts.clock ? { clock: opts.clock } : {}), authCacheMs: opts.authCacheMs ?? 0, strictUnits: true, ...(opts.webhookResolver ? { webhookResolver: opts.webhookResolver } : {}), ...(opts.worker ? { worker: opts.worker } : {}), ...(opts.pdf ? { pdf: opts.pdf } : {}), ...(opts.afterSeal ? { afterSeal: opts.afterSeal } : {}) });
  const app = await buildApp(deps.http, { logger: opts.logStream ? { level: 'info', stream: opts.logStream } : false, ...(opts.limits ? { limits: opts.limits } : {}) });

  const a = await createAccount(deps.domain, { name: 'Account A', plan: 'paid' });
  const b = await createAccount(deps.domain, { name: 'Account B' });
  const c = await createAccount(deps.domain, { name: 'Account C' });
  // Tests about something else may call one endpoint more often than its window allows (30 webhook
  // writes a minute): their accounts get a window they never meet. The monthly quota stays.
  if (!opts.contractLimits) for (const { id } of [a, b, c]) await setAccountLimits(deps.domain, id, { perMinute: 1_000_000 });
  const actor = async (accountId: string, mode: 'test' | 'live'): Promise<Actor> => {
    const k = await createApiKey(deps.domain, { accountId, mode });
    return { key: k.key, keyId: k.id, partition: { accountId, mode } };
  };
  const actors = { aTest: await actor(a.id, 'test'), aLive: await actor(a.id, 'live'), bTest: await actor(b.id, 'test'), cLive: await actor(c.id, 'live') };

  return {
    dialect,
    app,
    deps,
    dataDir,
    actors,
    async request(o) {
      const method = (o.method ?? 'GET').toUpperCase();
      const headers: Record<string, string> = { ...(o.as ? { authorization: `Bearer ${o.as.key}` } : {}), ...o.headers };
      let payload = o.payload;
      if (o.json !== undefined) {
        payload = JSON.stringify(o.json);
        headers['content-type'] ??= 'application/json';
      }
      const res = await app.inject({ method: method as 'GET', url: o.url, headers, ...(payload !== undefined ? { payload } : {}) });
      assertConformsToContract(method, o.url, { statusCode: res.statusCode, headers: res.headers, body: res.body });
      return { status: res.statusCode, headers: res.headers, body: res.body, rawPayload: res.rawPayload, json: <T>() => JSON.parse(res.body) as T };
    },
    async close() {
      await app.close();
      // Tolerant: a test may already have closed the database on purpose.
      await deps.close().catch(() => undefined);
      if (pgSchema) await dropPgSchema(pgSchema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh store without the app: a temp DATA_DIR for SQLite, a new schema for PostgreSQL; not migrated. */
export async function openStore(dialect: DialectName, prefix: string): Promise<{ handle: DatabaseHandle; dataDir: string; pgSchema?: string; close(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `formsign-${prefix}-${dialect}-`));
  const pgSchema = dialect === 'postgres' ? await createPgSchema() : undefined;
  // A unit that holds the group commit too long fails the test that wrote it (db/group-commit.ts).
  const handle = openDatabase({ dataDir, unitWatchdog: { strict: true }, ...(pgSchema ? { databaseUrl: PG_URL, pgSchema } : {}) });
  return {
    handle,
    dataDir,
    ...(pgSchema ? { pgSchema } : {}),
    async close() {
      await handle.close();
      if (pgSchema) await dropPgSchema(pgSchema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Set by scripts/run-tests.ts for the files it runs in parallel. Their schemas are then dropped by the
 * runner once every file has ended, not by each file: Kysely's migrator looks at every schema of the
 * database by name (`has_schema_privilege(nspname, …)`), so a schema another file drops at that moment
 * fails the migration with "schema … does not exist".
 */
const RUN_ID = process.env.FORMSIGN_TEST_RUN;

/** A new, empty PostgreSQL schema in the test database; `tag` names what it is for. */
export async function createPgSchema(tag = ''): Promise<string> {
  // A batch (the runner sets FORMSIGN_TEST_SHARED_PDF_POOL only there) runs beside other processes:
  // without the run's id its files would drop their schemas while those processes read the catalog.
  if (!RUN_ID && process.env.FORMSIGN_TEST_SHARED_PDF_POOL === '1') throw new Error('harness: a batch of test files started without FORMSIGN_TEST_RUN (scripts/run-tests.ts must pass the run id to every test process)');
  const schema = `t_${RUN_ID ? `${RUN_ID}_` : ''}${process.pid}_${tag}${Math.random().toString(36).slice(2, 10)}`;
  await withPg((c) => c.query(`create schema ${schema}`));
  return schema;
}

export async function dropPgSchema(schema: string): Promise<void> {
  if (RUN_ID) return;
  await withPg((c) => c.query(`drop schema ${schema} cascade`));
}

export async function withPg<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface ApiError {
  error: { type: string; code: string; message: string; param?: string; request_id: string };
}

export function errorOf(res: TestResponse): ApiError['error'] {
  return res.json<ApiError>().error;
}
