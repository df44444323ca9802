import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { CreateBucketCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { loadConfig } from '../../src/config.js';
import { createDeps } from '../../src/deps.js';
import { insertTemplate } from '../../src/db/repositories/templates.js';
import { createAccount, setAccountLimits } from '../../src/domain/accounts/manage-accounts.js';
import { createApiKey } from '../../src/domain/keys/manage-keys.js';
import { newId } from '../../src/lib/ids.js';
import type { Partition } from '../../src/lib/partition.js';
import { makeSampleTemplatePdf } from '../../src/pdf/index.js';
import { PG_URL } from '../harness.js';
import { dropDatabase, ROOT } from '../outbox/support/processes.js';
import { startSmtpSink } from '../outbox/support/sending.js';
import { freePort } from '../shared/free-port.js';
import { startRedis, stopRedis } from '../shared/redis-server.js';
import { S3RVER_CREDENTIALS, startS3rver } from '../shared/s3rver.js';
import { startTcpProxy, type TcpProxy } from '../shared/tcp-proxy.js';
import { startWebhookWitness, type WebhookWitness } from './webhook-witness.js';

// The whole product as a cluster (issue 27): N `formsign serve` (WORKER=off) and M `formsign worker`
// child processes, running the compiled dist/main.js, on one fresh PostgreSQL database, a Redis of
// their own, an S3 endpoint (s3rver) and loopback webhook and SMTP receivers. PostgreSQL and S3 are
// reached through TCP proxies the test can cut, so an outage touches nobody else on the machine.

export const METRICS_TOKEN = 'cluster-metrics-token-0123456789';
/** The limited account's window: the rate-limit check counts against it. */
export const LIMITED_PER_MINUTE = 10;
const S3_CREDENTIALS = S3RVER_CREDENTIALS;
const S3_BUCKET = 'formsign-cluster';
const S3_REGION = 'us-east-1';

export type Role = 'api' | 'worker';

/** One API or worker slot: its current process, restarted in place (same port, same environment). */
export interface Member {
  readonly role: Role;
  readonly index: number;
  /** The API's address (APIs only). */
  readonly base: string;
  /** Worker ids (`formsign worker` prints its id) of every life of this slot; the last is current. */
  readonly workerIds: string[];
  alive(): boolean;
  /** Started and ready (an API's /readyz), not killed since. */
  ready(): boolean;
  pid(): number | undefined;
  kill9(): Promise<void>;
  start(): Promise<void>;
  /** stderr of every life of this slot (warnings and errors: LOG_LEVEL=warn). */
  log(): string;
  /** Exits nobody asked for once it was running (a crash): each with its code or signal. */
  readonly crashes: string[];
  /** Exits while starting (restarted, as a supervisor would). */
  readonly startupExits: string[];
}

export interface Cluster {
  readonly dbName: string;
  readonly apis: Member[];
  readonly workers: Member[];
  readonly pgProxy: TcpProxy;
  readonly s3Proxy: TcpProxy;
  readonly smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  readonly webhooks: WebhookWitness;
  /** The load's account: no window it meets, a webhook on every event. */
  readonly load: { key: string; partition: Partition; templateId: string; webhookId: string; secret: string };
  /** An account with LIMITED_PER_MINUTE requests a minute per endpoint. */
  readonly limited: { key: string };
  /** A pool straight to the database (not through the proxy), for the checks. */
  readonly db: pg.Pool;
  redisStop(): Promise<void>;
  redisStart(): Promise<void>;
  /** pg_terminate_backend on every session of the cluster's database; the number ended. */
  terminateBackends(): Promise<number>;
  /** An object of the bucket straight from s3rver (not through the proxy). */
  s3Object(key: string): Promise<Buffer | null>;
  metrics(base: string): Promise<string>;
  close(): Promise<void>;
}

export interface ClusterOptions {
  api: number;
  workers: number;
  /** Extra environment for every process. */
  env?: Record<string, string>;
  /** The webhook receiver's answer time (default 30 ms, so overlapping deliveries would show). */
  webhookAnswerMs?: number;
  /** API processes (by index) started without REDIS_URL: a broken cluster, to see the rate-limit check fail. */
  withoutRedis?: number[];
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_URL });
  c.on('error', () => undefined);
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

function dbUrl(port: number | undefined, name: string): string {
  const u = new URL(PG_URL);
  if (port !== undefined) {
    u.hostname = '127.0.0.1';
    u.port = String(port);
  }
  u.pathname = `/${name}`;
  return u.toString();
}

export async function startCluster(o: ClusterOptions): Promise<Cluster> {
  const closers: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const c of closers.reverse()) await c().catch(() => undefined);
  };
  try {
    return await build(o, closers, close);
  } catch (error) {
    await close();
    throw error;
  }
}

async function build(o: ClusterOptions, closers: Array<() => Promise<unknown>>, close: () => Promise<void>): Promise<Cluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-cluster-'));
  closers.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  const dbName = `formsign_cluster_${process.pid}_${Date.now()}`;
  await admin((c) => c.query(`create database ${dbName}`));
  closers.push(() => dropDatabase(dbName));

  const pgTarget = new URL(PG_URL);
  const pgProxy = await startTcpProxy({ host: pgTarget.hostname, port: Number(pgTarget.port || 5432) });
  closers.push(() => pgProxy.close());

  fs.mkdirSync(path.join(dir, 's3'));
  const s3 = await startS3rver(path.join(dir, 's3'));
  const s3Port = s3.port;
  closers.push(() => s3.close());
  const s3Admin = new S3Client({ endpoint: `http://127.0.0.1:${s3Port}`, region: S3_REGION, credentials: S3_CREDENTIALS, forcePathStyle: true });
  closers.push(async () => s3Admin.destroy());
  await s3Admin.send(new CreateBucketCommand({ Bucket: S3_BUCKET }));
  const s3Proxy = await startTcpProxy({ host: '127.0.0.1', port: s3Port });
  closers.push(() => s3Proxy.close());

  const redisPort = await freePort();
  let redis: ChildProcess | undefined = await startRedis(redisPort);
  closers.push(async () => redis && stopRedis(redis));

  const smtp = await startSmtpSink();
  closers.push(() => smtp.close());
  const webhooks = await startWebhookWitness(o.webhookAnswerMs);
  closers.push(() => webhooks.close());

  const s3Env = { S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId, S3_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey };
  // As the README's "Running at scale" says: `formsign migrate` first, then every process with
  // MIGRATE_ON_START=off. The test's own handle then seeds, straight to PostgreSQL and s3rver.
  const direct = { DATA_DIR: dir, DATABASE_URL: dbUrl(undefined, dbName), S3_ENDPOINT: `http://127.0.0.1:${s3Port}`, ...s3Env };
  const migrate = spawnSync(process.execPath, ['dist/main.js', 'migrate'], { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '', ...direct, LOG_LEVEL: 'warn' }, encoding: 'utf8', timeout: 120_000 });
  if (migrate.status !== 0) throw new Error(`formsign migrate failed (${migrate.status ?? migrate.signal}): ${migrate.stdout}${migrate.stderr}`);
  const seedDeps = await createDeps(loadConfig({ ...direct, LOG_LEVEL: 'silent', MIGRATE_ON_START: 'off' }));
  let seeded: Awaited<ReturnType<typeof seed>>;
  try {
    seeded = await seed(seedDeps);
  } finally {
    await seedDeps.close();
  }

  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '',
    DATA_DIR: dir,
    DATABASE_URL: dbUrl(pgProxy.port, dbName),
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    S3_ENDPOINT: `http://127.0.0.1:${s3Proxy.port}`,
    ...s3Env,
    SMTP_URL: smtp.url,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    // A webhook retry after the outages comes within a second or two, not minutes.
    WEBHOOK_RETRY_SCALE: '0.02',
    METRICS_TOKEN,
    MIGRATE_ON_START: 'off',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    // Two cores: one PDF thread per process is what the machine can give.
    PDF_WORKERS: '1',
    ...o.env,
  };
  const apis: Member[] = [];
  for (let i = 0; i < o.api; i++) {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const apiEnv: Record<string, string> = { ...env, WORKER: 'off', PORT: String(port), HOST: '127.0.0.1', BASE_URL: base };
    if (o.withoutRedis?.includes(i)) delete apiEnv['REDIS_URL'];
    apis.push(member('api', i, base, apiEnv));
  }
  const workers: Member[] = [];
  for (let i = 0; i < o.workers; i++) workers.push(member('worker', i, '', env));
  closers.push(async () => Promise.all([...apis, ...workers].map((m) => m.kill9())));
  await Promise.all([...apis, ...workers].map((m) => m.start()));

  const db = new pg.Pool({ connectionString: dbUrl(undefined, dbName), max: 4 });
  db.on('error', () => undefined);
  closers.push(() => db.end());

  // The webhook is made through the API, as a user would.
  const res = await fetch(`${apis[0]!.base}/api/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${seeded.loadKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: webhooks.url, events: ['form.created', 'form.sent', 'form.viewed', 'form.signed'] }),
  });
  const hook = (await res.json()) as { id: string; signing_secret: string };
  if (res.status !== 201) throw new Error(`webhook not created: ${res.status} ${JSON.stringify(hook)}`);
  webhooks.secret = hook.signing_secret;

  return {
    dbName,
    apis,
    workers,
    pgProxy,
    s3Proxy,
    smtp,
    webhooks,
    load: { key: seeded.loadKey, partition: seeded.partition, templateId: seeded.templateId, webhookId: hook.id, secret: hook.signing_secret },
    limited: { key: seeded.limitedKey },
    db,
    async redisStop() {
      if (redis) await stopRedis(redis);
      redis = undefined;
    },
    async redisStart() {
      redis = await startRedis(redisPort);
    },
    terminateBackends: () =>
      admin(async (c) => {
        const { rows } = await c.query<{ ok: boolean }>('select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [dbName]);
        return rows.filter((r) => r.ok).length;
      }),
    async s3Object(key) {
      try {
        const out = await s3Admin.send(new GetObjectCommand({ Bucket: S3_BUCKET, Key: key }));
        return Buffer.from(await out.Body!.transformToByteArray());
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return null;
        throw error;
      }
    },
    async metrics(base) {
      const r = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` }, signal: AbortSignal.timeout(10_000) });
      return r.text();
    },
    close,
  };
}

/** The load's account (a template, a key, no window it meets) and the limited account. */
async function seed(deps: Awaited<ReturnType<typeof createDeps>>) {
  const load = await createAccount(deps.domain, { name: 'Cluster Rentals', plan: 'paid' });
  await setAccountLimits(deps.domain, load.id, { monthly: 1_000_000_000, perMinute: 1_000_000_000 });
  const partition: Partition = { accountId: load.id, mode: 'test' };
  const loadKey = (await createApiKey(deps.domain, { accountId: load.id, mode: 'test' })).key;
  const limited = await createAccount(deps.domain, { name: 'Limited Ltd', plan: 'paid' });
  await setAccountLimits(deps.domain, limited.id, { perMinute: LIMITED_PER_MINUTE });
  const limitedKey = (await createApiKey(deps.domain, { accountId: limited.id, mode: 'test' })).key;
  const sample = await makeSampleTemplatePdf();
  const templateId = newId('template');
  const pdfKey = `${load.id}/test/templates/${templateId}.pdf`;
  await deps.domain.blobs.put(pdfKey, sample.pdf, 'application/pdf');
  const now = new Date().toISOString();
  await deps.database.transact((trx) => insertTemplate(trx, partition, {
    id: templateId, name: 'Sample agreement', page_count: 1, fields: JSON.stringify(sample.fields), signer_count: 1, warnings: '[]',
    pdf_key: pdfKey, pdf_sha256: '0'.repeat(64), created_at: now, updated_at: now,
  }));
  return { loadKey, partition, limitedKey, templateId };
}

function member(role: Role, index: number, base: string, env: Record<string, string>): Member {
  let child: ChildProcess | undefined;
  let exited: Promise<unknown> = Promise.resolve();
  let log = '';
  const workerIds: string[] = [];
  const crashes: string[] = [];
  const startupExits: string[] = [];
  let killing = false;
  let ready = false;
  /** Spawns the process; resolves undefined once it is ready, or why it exited while starting. */
  const startOnce = async (): Promise<string | undefined> => {
    // Benches only: CLUSTER_WORKER_NODE_FLAGS (e.g. `--cpu-prof --cpu-prof-dir=…`) goes to each worker's node.
    const flags = role === 'worker' ? (process.env['CLUSTER_WORKER_NODE_FLAGS'] ?? '').split(' ').filter(Boolean) : [];
    const args = [...flags, '--enable-source-maps', 'dist/main.js', ...(role === 'api' ? ['serve'] : ['worker', '--json'])];
    const proc = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    exited = new Promise((resolve) => proc.once('exit', resolve));
    let out = '';
    let lifeLog = '';
    proc.once('exit', (code, signal) => {
      // Its log is in test-results/cluster/ after the run.
      if (!killing && ready) crashes.push(`${role} ${index} (pid ${proc.pid}) exited by itself (${code ?? signal})`);
    });
    // LOG_FORMAT=json at LOG_LEVEL=warn: stdout carries the warnings and errors (with request ids).
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (log.length < 1_000_000) log += c.toString();
    });
    proc.stderr!.on('data', (c: Buffer) => {
      if (log.length < 1_000_000) log += c.toString();
      if (lifeLog.length < 100_000) lifeLog += c.toString();
    });
    const until = Date.now() + 90_000;
    for (;;) {
      if (proc.exitCode !== null || proc.signalCode !== null) return `${role} ${index} exited (${proc.exitCode ?? proc.signalCode}) while starting: ${lifeLog.slice(-1500)}`;
      if (role === 'worker') {
        const id = /"object":\s*"worker",\s*"id":\s*"([^"]+)"/.exec(out)?.[1];
        if (id) {
          workerIds.push(id);
          ready = true;
          return undefined;
        }
      // /readyz, not /healthz: `serve` listens (and /healthz answers) before its start-up steps are done.
      } else if (await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false)) {
        ready = true;
        return undefined;
      }
      if (Date.now() > until) {
        proc.kill('SIGKILL');
        throw new Error(`${role} ${index} did not start within 90 s: ${lifeLog.slice(-4000)}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const alive = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  return {
    role,
    index,
    base,
    workerIds,
    crashes,
    startupExits,
    alive,
    ready: () => ready && alive(),
    pid: () => child?.pid,
    log: () => log,
    async kill9() {
      ready = false;
      if (!alive()) return;
      killing = true;
      child!.kill('SIGKILL');
      await exited;
      killing = false;
    },
    async start() {
      // As a supervisor (systemd's Restart=, a Procfile runner) would: a process that exits while it
      // starts (its migration check met a PostgreSQL outage) is started again, and the exit noted.
      for (let attempt = 1; ; attempt++) {
        const exit = await startOnce();
        if (exit === undefined) return;
        startupExits.push(exit);
        if (attempt >= 5) throw new Error(`${role} ${index} exited while starting ${attempt} times: ${exit}`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    },
  };
}
