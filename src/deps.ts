import fs from 'node:fs';
import { createOfficeConverter } from './providers/documents/office-converter.js';
import path from 'node:path';
import { ConfigError, type Config } from './config.js';
import { randomBytes } from 'node:crypto';
import { migrateToLatest, openDatabase, pendingMigrations, ping, type DatabaseHandle } from './db/database.js';
import { pgMigrationLock, sqliteMigrationLock } from './db/migration-lock.js';
import type { OnConnectionError } from './db/pg-pool.js';
import type { Fdatasync } from './db/wal-sync.js';
import type { ScryptCost } from './domain/users/passwords.js';
import { UNIT_LIMIT_MS } from './db/group-commit.js';
import { ensureServiceSecret, findServiceSecret } from './db/repositories/service-secrets.js';
import type { DomainDeps, WebhookServices } from './domain/context.js';
import { createAuthenticator, type Authenticator } from './domain/keys/authenticate.js';
import { GENERATED_TYPES_PATH, loadOpenApiDocument } from './http/openapi.js';
import type { HttpServices } from './http/services.js';
import { systemClock, type Clock } from './lib/clock.js';
import { createFileLinks } from './lib/file-links.js';
import { createSigningLinks } from './lib/signing-links.js';
import { createRenderCache } from './domain/forms/render-cache.js';
import { TemplateCache } from './domain/templates/template-cache.js';
import { borrowedPdfWork, checkSigningCertificate, createPdfWork, loadSigningCertificate, recordServiceCertificate, SigningCertificateError, SigningCertificateRefusedError, TimestampUnavailableError, type PdfPoolOptions, type PdfWork, type SigningCertificate } from './pdf/index.js';
import { createCertificateReadiness, type CertificateReadiness } from './domain/signing/certificate-readiness.js';
import { createFsBlobStore, createS3BlobStore, type BlobStore } from './providers/blob/index.js';
import { formsExpiryHandler } from './domain/forms/expire-forms.js';
import { messageDeliveryHandler } from './domain/sending/deliver-message.js';
import { createDispatcher, type DispatcherOptions, type Worker } from './outbox/dispatcher.js';
import { listenForJobs } from './outbox/pg-listener.js';
import type { JobHandlers } from './outbox/registry.js';
import { acquireSqliteWorkerLock } from './outbox/sqlite-worker-lock.js';
import { transactWithWakeup, WakeSignal } from './outbox/wakeup.js';
import { createSmtpEmailSender, devEmailSender, type EmailSender } from './providers/email/index.js';
import { createTwilioSmsSender, devSmsSender, type SmsSender } from './providers/sms/index.js';
import { createWebhookSender, type Resolver } from './providers/webhook-http/index.js';
import { createChatModel } from './providers/llm/index.js';
import { createOidcClient } from './providers/oidc/oidc-client.js';
import { webhookDeliveryHandler } from './domain/webhooks/deliver-webhook.js';
import { publishAllPending } from './domain/webhooks/publish-events.js';
import { webhookSweepHandler } from './domain/webhooks/sweep-deliveries.js';
import { outboxSweepHandler } from './outbox/sweep-done-jobs.js';
import { activitySweepHandler } from './domain/activity/sweep-activity.js';
import { idempotencySweepHandler } from './domain/idempotency/sweep-keys.js';
import { formSealHandler, type SealDeps } from './domain/signing/seal-form.js';
import { formPurgeHandler } from './domain/forms/purge-files.js';
import { formsRetentionHandler } from './domain/forms/retention.js';
import { formRemindHandler } from './domain/lifecycle/remind-recipients.js';
import { MAX_ROWS as MAX_BULK_ROWS } from './domain/bulk/bulk-rules.js';
import { bulkSendRunHandler } from './domain/bulk/run-bulk-send.js';
import { countOpenJobs, oldestDueJobs } from './db/repositories/outbox-depth.js';
import { createLimits, type Limits } from './domain/limits/limits.js';
import { createStorageHealth } from './lib/storage-health.js';
import { MemoryWindowStore } from './domain/limits/memory-window.js';
import { WINDOW_MS } from './domain/limits/policy.js';
import { QuotaCounter } from './domain/limits/quota.js';
import { RedisWindowStore } from './domain/limits/redis-window.js';
import type { WindowStore } from './domain/limits/sliding-window.js';
import { createMetrics, type Metrics, type OldestDue } from './lib/metrics.js';
import type { Db } from './db/handles.js';
import { repeatLimitedLog, throttledWarning } from './lib/throttled-warning.js';
import { LOG_REPEAT_MS } from './http/failure-log.js';
import type { StartUpWait } from './lib/start-up-wait.js';
import type { WebhookResponse, WebhookSender } from './providers/webhook-http/index.js';

// The composition root: the only place that constructs implementations or chooses them from config.

export interface Deps {
  readonly config: Config;
  readonly database: DatabaseHandle;
  /** The migrations this start applied (`formsign migrate` reports them). */
  readonly migrated: readonly string[];
  readonly domain: DomainDeps;
  readonly authenticator: Authenticator;
  readonly http: HttpServices;
  /** The job worker, built but not started: `formsign serve` (WORKER=inline) or `formsign worker` starts it. */
  readonly worker: Worker;
  /** Rate-limit windows and the monthly quota (also in `http`). */
  readonly limits: Limits;
  readonly metrics: Metrics;
  /** The PDF pool (its lanes' load, for tests and benchmarks). */
  readonly pdf: PdfWork;
  /** DepsOptions.startUp, for the start-up steps after these deps are made (starting the worker). */
  readonly startUp?: StartUpWait;
  close(): Promise<void>;
}

/** Worker settings tests and the CLI may tune; the rest comes from config. */
export type WorkerOptions = Partial<Pick<DispatcherOptions, 'concurrency' | 'leaseMs' | 'pollMs' | 'stopGraceMs' | 'random' | 'log' | 'retryPolicies'>>;

export interface DepsOptions {
  clock?: Clock;
  /** PostgreSQL schema (tests use a fresh one per run). */
  pgSchema?: string;
  /** Auth cache lifetime; revocations apply within this. */
  authCacheMs?: number;
  worker?: WorkerOptions;
  /** The DNS resolver webhook connections use (tests resolve names to loopback with their own). */
  webhookResolver?: Resolver;
  /**
   * Test hook, never set in production: awaited by the seal job once the PDF is signed and before it
   * is stored, so a crash test can hold a worker there and SIGKILL it mid-job.
   */
  afterSeal?: (formId: string) => Promise<void>;
  /** How long the LLM_* model may take before the built-in generator answers (default 10 s; tests shorten it). */
  llmTimeoutMs?: number;
  /** Limits tuning for tests: quota flush interval, Redis key prefix, how often a Redis outage is logged. */
  limits?: LimitsOptions;
  /** `formsign migrate`: apply pending migrations even with MIGRATE_ON_START=off. */
  migrate?: boolean;
  /**
   * Tests: a unit of work that holds SQLite's group commit past its limit rejects instead of only being
   * logged and counted (db/group-commit.ts), so the test that wrote it fails.
   */
  strictUnits?: boolean;
  /** Tests: the PDF pool's bounds (a short deadline, a tight public CPU limit). */
  pdf?: Partial<Pick<PdfPoolOptions, 'deadlineMs' | 'verifyCpuMs' | 'publicQueued' | 'publicPerOwner' | 'publicWorkers'>>;
  /** Tests only, never set in production: scrypt's cost for new password hashes (default SCRYPT_PARAMS). */
  passwordCost?: ScryptCost;
  /**
   * Tests only: a PDF pool shared by every Deps of the process (one per test process, not one per
   * harness); close() leaves it running for the next.
   */
  sharedPdfWork?: PdfWork;
  /**
   * Tests only: the WAL flush (db/wal-sync.ts) every SQLite store of the process shares, instead of a
   * thread of its own per store (starting one costs ~40 ms of CPU, paid by every test harness).
   */
  walFlush?: Fdatasync;
  /**
   * `formsign serve` and `formsign worker`: the start-up steps that need the database are retried with
   * backoff while it is unavailable (issue 35 item 5); without it a failure ends the call at once.
   */
  startUp?: StartUpWait;
}

export interface LimitsOptions {
  flushEveryMs?: number;
  redisKeyPrefix?: string;
  redisWarnEveryMs?: number;
}

// PDF job limits: CPU time of the worker thread (not time in the queue) and heap per worker; a
// template is trial-filled at import within a quarter of the CPU time, so every stored one fills.
const PDF_JOB_CPU_MS = 10_000;
const PDF_JOB_HEAP_MB = 256;
// The most one PDF stream may inflate to: decoded object and content streams of real forms are a few
// MiB at most (images are not inflated to read fields); a bomb is refused at this size, in well under
// a second of a worker (issue 26, defect 3).
const PDF_DECODED_STREAM_MB = 16;
// Every PDF job is answered within this of its submission, queue included (a busy 503 past it): well
// under the HTTP idle-socket timeout (120 s), which would otherwise close a waiting request unanswered.
const PDF_JOB_DEADLINE_MS = 90_000;

/** The PDF pool's settings for a configuration (tests share one pool among harnesses of equal settings). */
export function pdfPoolOptions(config: Config): PdfPoolOptions {
  return { workers: config.pdf.workers, maxQueued: config.pdf.queueLimit, jobCpuMs: PDF_JOB_CPU_MS, maxOldGenerationSizeMb: PDF_JOB_HEAP_MB, maxDecodedStreamMb: PDF_DECODED_STREAM_MB, deadlineMs: PDF_JOB_DEADLINE_MS };
}
const TEMPLATE_CACHE_BYTES = 64 * 1024 * 1024;
// Filled PDFs in the blob store: at most 1 GiB, none older than 7 days (renderings are redrawn on demand).
const RENDER_CACHE = { maxBytes: 1024 * 1024 * 1024, maxAgeMs: 7 * 24 * 3600 * 1000 };

export async function createDeps(config: Config, opts: DepsOptions = {}): Promise<Deps> {
  // First: a certificate that cannot be used stops the start before anything else is opened.
  const signingCertificate = loadServiceCertificate(config);
  // Before the database: its connections report their losses here, and the group commit its slow units.
  // The outbox depth is read at scrape time only.
  const clock = opts.clock ?? systemClock;
  const metrics = createMetrics({ outboxDepth: () => countOpenJobs(database.db), oldestDue: () => oldestDue(database.db, clock) });
  // During an outage every request fails to connect, under load many units are slow: a line per kind at most every 5 s.
  const warn = throttledWarning(5000);
  // Lines per attempt (a job claim, a quota flush, a checkpoint) while a part is down or the disk full:
  // one per kind every 10 s, with how many were left out (issue 35 item 6).
  const logRepeats = repeatLimitedLog(LOG_REPEAT_MS, (line) => console.error(line));
  const onConnectionError = connectionErrorReporter(metrics, warn);
  const untilDone = <T>(step: () => Promise<T>): Promise<T> => (opts.startUp ? opts.startUp.run(step) : step());
  const database = await untilDone(async () => openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    ...(opts.pgSchema ? { pgSchema: opts.pgSchema } : {}),
    ...(opts.walFlush ? { walFlush: opts.walFlush } : {}),
    pgPreparedStatements: config.pgPreparedStatements,
    // The store keeps working (the in-thread backstop takes over), but an operator should know.
    onCheckpointError: (message) => logRepeats(`formsign: background WAL checkpoint failed: ${message}`),
    onConnectionError,
    unitWatchdog: {
      strict: opts.strictUnits === true,
      onSlow: (heldMs) => {
        metrics.slowUnit();
        warn('slow-unit', `formsign: warning: a unit of work held the SQLite group commit for ${heldMs.toFixed(1)} ms (limit ${UNIT_LIMIT_MS} ms); every write of the process waited meanwhile.`);
      },
    },
  }));
  const storage = createStorageHealth(config.dataDir);
  if (database.openedOnFullDisk) {
    storage.noteFull();
    console.error(`formsign: the disk holding ${config.dataDir} is full: started with the database opened for this process alone; reads are served, writes answer 503 storage_unavailable until space is freed (restart once it is, so other processes can open the database again).`);
  }
  let migrated: string[];
  try {
    migrated = await untilDone(() => migrateOrCheck(config, database, opts.migrate === true));
  } catch (err) {
    await database.close();
    throw err;
  }
  const blobs = createBlobStore(config);
  // All PDF work (import, fill) in one pool; limits per job, as documented under PDF_WORKERS.
  // A harness that asks for its own pool bounds (opts.pdf) gets a pool of its own, never the shared one.
  const pdf = opts.sharedPdfWork && !opts.pdf ? borrowedPdfWork(opts.sharedPdfWork) : createPdfWork({ ...pdfPoolOptions(config), ...opts.pdf });
  // One key for every instance on this database: a link made by one server opens on another.
  // Read before the transaction: a later start (every operator command) then commits nothing, and
  // a read-only command starts no WAL thread (issue 36 item 3).
  const secret = async (name: string) => (await findServiceSecret(database.db, name))
    ?? untilDone(() => database.transact((trx) => ensureServiceSecret(trx, name, () => randomBytes(32).toString('base64url'), new Date().toISOString())));
  const linkKey = await secret('signing_links');
  const links = createSigningLinks({ baseUrl: config.baseUrl, key: linkKey });
  const fileKey = await secret('file_links');
  const fileLinks = createFileLinks({ key: fileKey });
  // Units that enqueue a job wake this process's worker once they have committed (outbox/wakeup.ts).
  const wakeSignal = new WakeSignal();
  const domain: DomainDeps = { ...(opts.passwordCost ? { passwordCost: opts.passwordCost } : {}), ...(config.oidc ? { oidc: createOidcClient(config.oidc) } : {}), db: database.db, transact: transactWithWakeup(database.transact, wakeSignal.fire), transactReplayable: database.transactReplayable, clock, blobs, pdfInspector: pdf.inspector, documents: createOfficeConverter(config.officeConverter), pdfRenderer: pdf.renderer, pdfPages: pdf, templateCache: new TemplateCache(TEMPLATE_CACHE_BYTES), renderCache: createRenderCache(blobs, RENDER_CACHE), links, fileLinks, baseUrl: config.baseUrl, webhooks: createWebhookServices(config, opts, metrics), signingCertificate, copies: { attachMaxBytes: config.mailAttachMaxBytes }, plans: config.plans, generate: {
    layout: (req, job) => pdf.generate(req, job),
    model: config.llm ? createChatModel({ ...config.llm, ...(opts.llmTimeoutMs ? { timeoutMs: opts.llmTimeoutMs } : {}) }) : undefined,
    onModelFailure: (err) => console.error(`formsign generate: the model failed, the built-in generator answered: ${err instanceof Error ? err.message : String(err)}`),
  }, verifyPdf: (source, service, job) => pdf.verify(source, service, job), auditTrailPdf: (audit, facts, job) => pdf.auditTrail(audit, facts, job), bulkSendMaxRows: MAX_BULK_ROWS[database.dialect] };
  const certificate = createCertificateReadiness(() => checkSigningCertificate(signingCertificate, clock.now(), READINESS_TIMEOUT_MS), () => clock.now().getTime(), READINESS_TIMEOUT_MS);
  const { worker, closeSenders } = createWorker(config, database, domain, pdf, opts, metrics, onConnectionError, certificate, logRepeats);
  wakeSignal.listen(worker.wake);
  const limits = createLimitsService(config, database, domain.clock, metrics, opts.limits ?? {}, logRepeats);
  const authenticator = createAuthenticator(domain, { ttlMs: opts.authCacheMs ?? 2000, maxEntries: 10_000, touchEveryMs: 60_000 });
  let openapi: HttpServices['openapi'] | undefined;
  let sdkSource: string | undefined;
  const http: HttpServices = {
    domain,
    authenticator,
    // Parsed when the HTTP app is built, not by every CLI command (YAML parsing costs ~0.1 s).
    get openapi() {
      return (openapi ??= loadOpenApiDocument());
    },
    get sdkSource() {
      return (sdkSource ??= fs.readFileSync(GENERATED_TYPES_PATH, 'utf8'));
    },
    unreachable: () => unreachableParts(config, database, blobs),
    sealing: () => certificate.problem(),
    storage,
    limits,
    metrics,
    metricsToken: config.metricsToken,
    trustProxy: config.trustProxy,
    // Dashboard (issue 24): the dev outbox page exists only where messages stay in it.
    devOutbox: { email: !config.smtp.url, sms: !config.sms },
  };
  return {
    config,
    database,
    migrated,
    domain,
    authenticator,
    http,
    worker,
    limits,
    metrics,
    pdf,
    ...(opts.startUp ? { startUp: opts.startUp } : {}),
    async close() {
      await worker.stop();
      // The calls counted since the last flush are written before the database closes.
      await limits.close().catch((err: Error) => console.error(`formsign: ${err.message}`));
      closeSenders();
      domain.webhooks.sender.close();
      await pdf.close();
      await database.close();
    },
  };
}

/** Thrown when MIGRATE_ON_START=off and this version has migrations the database lacks. */
export class MigrationsPendingError extends Error {
  constructor(readonly pending: readonly string[]) {
    super(`The database lacks ${pending.length} migration(s) this version needs (${pending.join(', ')}) and MIGRATE_ON_START=off: run \`formsign migrate\` first.`);
    this.name = 'MigrationsPendingError';
  }
}

/** Applies pending migrations one process at a time, or (MIGRATE_ON_START=off) refuses to start behind. */
async function migrateOrCheck(config: Config, database: DatabaseHandle, forced: boolean): Promise<string[]> {
  if (!config.migrateOnStart && !forced) {
    const pending = await pendingMigrations(database);
    if (pending.length > 0) throw new MigrationsPendingError(pending);
    return [];
  }
  // Opened on a full disk, the database is this process's alone (db/sqlite-open.ts): no other migrator
  // can reach it, and the lock file could not be journalled.
  if (database.openedOnFullDisk) return migrateToLatest(database);
  const onWait = (line: string) => console.error(line);
  const lock = database.dialect === 'postgres' ? pgMigrationLock(database.db, onWait) : sqliteMigrationLock(path.join(config.dataDir, 'migrate.lock'), onWait);
  return migrateToLatest(database, lock);
}

/** SIGNING_CERT_P12/SIGNING_CERT_PASSWORD, else the self-signed certificate kept in DATA_DIR. */
function loadServiceCertificate(config: Config): SigningCertificate {
  try {
    const cert = loadSigningCertificate({ p12Path: config.signingCert?.p12Path, password: config.signingCert?.password, dataDir: config.dataDir, serviceName: 'Formsign' });
    // For `formsign verify` offline: the data directory names the certificate even when it came from
    // SIGNING_CERT_P12. A read-only DATA_DIR (S3 deployments) only loses that convenience.
    recordServiceCertificate(config.dataDir, cert);
    return cert;
  } catch (err) {
    if (err instanceof SigningCertificateError) throw new ConfigError(err.variable, err.detail);
    throw err;
  }
}

function createBlobStore(config: Config): BlobStore {
  if (config.s3) return createS3BlobStore({ ...config.s3, ...(config.s3.endpoint ? { endpoint: config.s3.endpoint } : {}) });
  return createFsBlobStore(path.join(config.dataDir, 'files'));
}

function createWorker(config: Config, database: DatabaseHandle, domain: DomainDeps, pdfWork: PdfWork, opts: DepsOptions, metrics: Metrics, onConnectionError: OnConnectionError, certificate: CertificateReadiness, logRepeats: (line: string) => void): { worker: Worker; closeSenders(): void } {
  const email: EmailSender = config.smtp.url ? createSmtpEmailSender({ url: config.smtp.url, from: config.smtp.from, maxConnections: opts.worker?.concurrency ?? 8 }) : devEmailSender;
  const sms: SmsSender = config.sms
    ? createTwilioSmsSender({ baseUrl: config.sms.url, accountSid: config.sms.accountSid!, authToken: config.sms.authToken!, from: config.sms.from! })
    : devSmsSender;
  const handlers: JobHandlers = {
    'message.deliver': messageDeliveryHandler({ db: domain.db, transact: domain.transact, clock: domain.clock, email, sms, blobs: domain.blobs }),
    'forms.expire': formsExpiryHandler(domain),
    'webhook.deliver': webhookDeliveryHandler(domain),
    'webhook.sweep': webhookSweepHandler(domain),
    'outbox.sweep': outboxSweepHandler(domain),
    'idempotency.sweep': idempotencySweepHandler(domain),
    'activity.sweep': activitySweepHandler(domain),
    'form.remind': formRemindHandler(domain),
    'form.purge': formPurgeHandler(domain),
    'forms.retention': formsRetentionHandler(domain, (n) => metrics.formsPurged('retention', n)),
    'bulk_send.run': bulkSendRunHandler(domain),
    'form.seal': formSealHandler({ ...domain, seal: withAfterSeal(timedSeal(countTsaFailures((req, job) => pdfWork.seal(req, domain.signingCertificate, job, config.tsa), metrics, certificate), metrics), opts.afterSeal) }),
  };
  const { databaseUrl } = config;
  const worker = createDispatcher({
    db: database.db,
    transact: database.transact,
    transactReplayable: database.transactReplayable,
    dialect: database.dialect,
    clock: domain.clock,
    handlers,
    log: (line) => logRepeats(`formsign worker: ${line}`),
    onFailure: (kind, final) => countJobFailure(metrics, kind, final),
    // Pending events become webhook deliveries before each claim (the events table is their outbox).
    feed: () => publishAllPending(domain, { skipLocked: database.dialect === 'postgres' }),
    // On SIGTERM, how long running jobs get before their leases are handed back.
    stopGraceMs: config.shutdownGraceMs,
    ...opts.worker,
    ...(databaseUrl
      ? { listen: (onSignal) => listenForJobs(databaseUrl, database.pgSchema, onSignal, (line) => console.error(`formsign worker: ${line}`), onConnectionError) }
      // A database opened on a full disk is this process's alone (db/sqlite-open.ts): no other worker can reach it.
      : database.openedOnFullDisk ? {} : { lock: () => acquireSqliteWorkerLock(path.join(config.dataDir, 'worker.lock')) }),
  });
  return { worker, closeSenders: () => email.close() };
}

/**
 * A PostgreSQL connection failed or was ended by the server (a restart, a failover, an operator's
 * pg_terminate_backend): a warning and a count, nothing more; the pool opens a new one on next use and
 * requests meanwhile answer 503 (db/pg-pool.ts).
 */
function connectionErrorReporter(metrics: Metrics, warn: (kind: string, line: string) => void): OnConnectionError {
  return (connection, err) => {
    metrics.databaseConnectionError(connection);
    warn(`connection:${connection}`, `formsign: PostgreSQL connection (${connection}) failed or was ended by the server: ${err.message}`);
  };
}

// A readiness probe must answer within its caller's timeout even when a dependency blackholes packets.
const READINESS_TIMEOUT_MS = 3000;

/** /readyz: the database and the file store (S3 when configured) asked at once, each within a bound. */
async function unreachableParts(config: Config, database: DatabaseHandle, blobs: BlobStore): Promise<string[]> {
  const within = (check: Promise<boolean>) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), READINESS_TIMEOUT_MS)));
    return Promise.race([check.catch(() => false), late]).finally(() => clearTimeout(timer));
  };
  const [db, files] = await Promise.all([within(ping(database.db)), within(blobs.ping())]);
  const down: string[] = [];
  if (!db) down.push(`the database (${database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'})`);
  // Named, never located: /readyz is public, so no bucket name or path.
  if (!files) down.push(config.s3 ? 'the file store (S3)' : 'the file store (DATA_DIR)');
  return down;
}

/** Seal and message failures in /metrics (webhook failures are counted per attempt in countAttempts). */
function countJobFailure(metrics: Metrics, kind: string, final: boolean): void {
  if (kind === 'form.seal') metrics.sealFailed(final);
  else if (kind === 'message.deliver') metrics.deliveryFailed('message');
}

/** Per job kind, seconds since its oldest waiting job became due (/metrics, at scrape time). */
async function oldestDue(db: Db, clock: Clock): Promise<OldestDue[]> {
  const now = clock.now();
  const rows = await oldestDueJobs(db, now.toISOString());
  return rows.map((r) => ({ kind: r.kind, ageSeconds: (now.getTime() - Date.parse(r.runAt)) / 1000 }));
}

function withAfterSeal(seal: SealDeps['seal'], afterSeal: DepsOptions['afterSeal']): SealDeps['seal'] {
  if (!afterSeal) return seal;
  return async (req, job) => {
    const pdf = await seal(req, job);
    await afterSeal(req.audit.formId);
    return pdf;
  };
}

// A slow receiver may hold at most this many of a worker's job slots (the dispatcher runs 8 by default).
const WEBHOOK_PER_ENDPOINT_CONCURRENCY = 4;
const VERSION = (JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

function createWebhookServices(config: Config, opts: DepsOptions, metrics: Metrics): WebhookServices {
  const userAgent = `Formsign-Webhooks/${VERSION}`;
  const sender = createWebhookSender({
    allowPrivateNetworks: config.webhooks.allowPrivateNetworks,
    // Sockets are pooled per host, which several webhooks may share; the per-webhook cap is enforced
    // where attempts start (EndpointSlots), so the pool only needs room for all of a worker's attempts.
    maxSocketsPerHost: 32,
    ...(opts.webhookResolver ? { resolver: opts.webhookResolver } : {}),
  });
  return { sender: countAttempts(sender, metrics), retryScale: config.webhooks.retryScale, perEndpointConcurrency: WEBHOOK_PER_ENDPOINT_CONCURRENCY, userAgent, random: Math.random };
}

/** In-process windows unless REDIS_URL is set; the quota flushes every second (issue 14). */
function createLimitsService(config: Config, database: DatabaseHandle, clock: Clock, metrics: Metrics, opts: LimitsOptions, logRepeats: (line: string) => void): Limits {
  const log = (line: string) => logRepeats(`formsign limits: ${line}`);
  const window: WindowStore = config.redisUrl
    ? new RedisWindowStore({ url: config.redisUrl, windowMs: WINDOW_MS, onFailOpen: () => metrics.redisFailOpen(), log, ...(opts.redisKeyPrefix ? { keyPrefix: opts.redisKeyPrefix } : {}), ...(opts.redisWarnEveryMs !== undefined ? { warnEveryMs: opts.redisWarnEveryMs } : {}) })
    : new MemoryWindowStore(WINDOW_MS);
  const quota = new QuotaCounter({ db: database.db, transact: database.transact, clock }, { flushEveryMs: opts.flushEveryMs ?? 1000, monthlyCalls: config.plans.monthlyCalls, log });
  quota.start();
  return createLimits({ clock, window, quota });
}

/**
 * TSAs that failed (TSA_URLS), by URL, and seals no TSA timestamped, in /metrics (issue 25); seals
 * refused for a revoked or expired signing certificate, in /metrics and /readyz (issue 34).
 */
function countTsaFailures(seal: SealDeps['seal'], metrics: Metrics, certificate: CertificateReadiness): SealDeps['seal'] {
  return async (req, job) => {
    try {
      const result = await seal(req, job);
      for (const f of result.tsaFailures) metrics.tsaFailure(f.url);
      return result;
    } catch (err) {
      if (err instanceof TimestampUnavailableError) {
        for (const f of err.failures) metrics.tsaFailure(f.url);
        metrics.sealUntimestamped();
      }
      if (err instanceof SigningCertificateRefusedError) {
        metrics.sealCertificateRefused(err.reason);
        certificate.refused(err);
      }
      throw err;
    }
  };
}

/** Seal time in /metrics, measured around the PDF pool's seal. */
function timedSeal(seal: SealDeps['seal'], metrics: Metrics): SealDeps['seal'] {
  return async (req, job) => {
    const started = performance.now();
    try {
      const pdf = await seal(req, job);
      metrics.observeSeal((performance.now() - started) / 1000, true);
      return pdf;
    } catch (err) {
      metrics.observeSeal((performance.now() - started) / 1000, false);
      throw err;
    }
  };
}

/** Webhook attempt outcomes in /metrics: the receiver's status class, or `error` when none answered. */
function countAttempts(sender: WebhookSender, metrics: Metrics): WebhookSender {
  return {
    post: (req) =>
      sender.post(req).then(
        (res) => {
          const outcome = webhookOutcome(res);
          metrics.webhookAttempt(outcome);
          if (outcome !== '2xx') metrics.deliveryFailed('webhook');
          return res;
        },
        (err: unknown) => {
          metrics.webhookAttempt('error');
          metrics.deliveryFailed('webhook');
          throw err;
        },
      ),
    checkHost: (hostname) => sender.checkHost(hostname),
    close: () => sender.close(),
  };
}

function webhookOutcome(res: WebhookResponse): string {
  if (!res.ok) return res.refused ? 'refused' : 'error';
  return `${Math.floor(res.status / 100)}xx`;
}
