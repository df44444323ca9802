import { Counter, Gauge, Histogram, Registry } from 'prom-client';

// Prometheus metrics (GET /metrics). One registry per composition, never prom-client's global one,
// so that several apps in one process (tests, benchmarks) keep their own counts.

export type StatusClass = '1xx' | '2xx' | '3xx' | '4xx' | '5xx';

export interface OutboxDepth {
  kind: string;
  status: string;
  count: number;
}

export interface OldestDue {
  kind: string;
  /** Seconds since the kind's oldest waiting job became due. */
  ageSeconds: number;
}

export interface MetricsSources {
  /** Read at scrape time (one grouped query): jobs per kind and open status. */
  outboxDepth?: () => Promise<OutboxDepth[]>;
  /** Read at scrape time: per kind, how long its oldest due job has waited for a worker. */
  oldestDue?: () => Promise<OldestDue[]>;
}

/** What a delivery failure was a delivery of: a webhook attempt, or an e-mail/SMS message attempt. */
export type DeliveryChannel = 'webhook' | 'message';

export interface Metrics {
  readonly registry: Registry;
  /** One finished HTTP request: counted and timed per route template and status class. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  limited(reason: 'rate_limited' | 'monthly_quota_exceeded'): void;
  redisFailOpen(): void;
  webhookAttempt(outcome: string): void;
  observeSeal(seconds: number, ok: boolean): void;
  /** A seal attempt failed (the seal job retries; `final`: it was the last attempt). */
  sealFailed(final: boolean): void;
  /** A delivery attempt failed: a webhook answered other than 2xx or not at all, or a message job's attempt failed. */
  deliveryFailed(channel: DeliveryChannel): void;
  /** A PostgreSQL connection failed or was ended by the server, by pool ('main', 'replayable', 'listener'). */
  databaseConnectionError(connection: string): void;
  /** A unit of work held SQLite's group commit past its limit (db/group-commit.ts). */
  slowUnit(): void;
  /** A TSA (by URL, one of TSA_URLS) gave no usable timestamp for a seal (issue 25). */
  tsaFailure(url: string): void;
  /** A seal attempt that no TSA timestamped, so nothing was sealed and the job retries. */
  sealUntimestamped(): void;
  /** A seal attempt refused because the signing certificate is revoked or expired (issue 34). */
  sealCertificateRefused(reason: 'revoked' | 'expired'): void;
  /** A request's write failed because the disk is full (answered 503 storage_unavailable). */
  storageFull(): void;
  /** Finished forms purged, by reason (`retention`: the daily retention job; issue 40). */
  formsPurged(reason: 'retention', count: number): void;
  render(): Promise<{ contentType: string; body: string }>;
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const CLASSES: readonly StatusClass[] = ['1xx', '2xx', '3xx', '4xx', '5xx'];

export function statusClass(status: number): StatusClass {
  return CLASSES[Math.min(4, Math.max(0, Math.floor(status / 100) - 1))]!;
}

export function createMetrics(sources: MetricsSources = {}): Metrics {
  const registry = new Registry();
  const requests = new Counter({ name: 'formsign_http_requests_total', help: 'HTTP requests by method, route template and status class.', labelNames: ['method', 'route', 'status_class'] as const, registers: [registry] });
  const duration = new Histogram({ name: 'formsign_http_request_duration_seconds', help: 'Time from request to the last response byte, by method, route template and status class.', labelNames: ['method', 'route', 'status_class'] as const, buckets: LATENCY_BUCKETS, registers: [registry] });
  const limited = new Counter({ name: 'formsign_rate_limited_requests_total', help: 'Requests refused with 429, by reason (rate_limited, monthly_quota_exceeded).', labelNames: ['reason'] as const, registers: [registry] });
  const failOpen = new Counter({ name: 'formsign_rate_limit_redis_fail_open_total', help: 'Requests let through without a shared window because Redis did not answer.', registers: [registry] });
  const webhooks = new Counter({ name: 'formsign_webhook_attempts_total', help: 'Webhook delivery attempts by outcome: the status class of the answer (2xx … 5xx), error (none came), refused (a forbidden address).', labelNames: ['outcome'] as const, registers: [registry] });
  const seal = new Histogram({ name: 'formsign_seal_duration_seconds', help: 'Time to seal a signed PDF (flatten, audit page, PAdES signature), by result.', labelNames: ['result'] as const, buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30], registers: [registry] });
  const connectionErrors = new Counter({ name: 'formsign_database_connection_errors_total', help: 'PostgreSQL connections that failed or were ended by the server (restart, failover, pg_terminate_backend), by pool; each is replaced on next use.', labelNames: ['pool'] as const, registers: [registry] });
  const storageFull = new Counter({ name: 'formsign_storage_full_errors_total', help: 'Requests whose write failed because the disk holding the data is full (answered 503 storage_unavailable).', registers: [registry] });
  const slowUnits = new Counter({ name: 'formsign_db_slow_units_total', help: 'Units of work that held the SQLite group commit longer than 50 ms (every other write waited meanwhile).', registers: [registry] });
  const tsaFailures = new Counter({ name: 'formsign_tsa_failures_total', help: 'Time-stamp requests a TSA (one of TSA_URLS) answered with an error, a bad token or not in time; the next TSA is asked.', labelNames: ['tsa'] as const, registers: [registry] });
  const untimestamped = new Counter({ name: 'formsign_seal_timestamp_unavailable_total', help: 'Seal attempts for which no TSA gave a timestamp: nothing was sealed and the seal job retries.', registers: [registry] });
  const certificateRefused = new Counter({ name: 'formsign_seal_certificate_refused_total', help: 'Seal attempts refused because the signing certificate (or an issuer) is revoked according to the OCSP/CRL data fetched at sealing, or expired; nothing was sealed.', labelNames: ['reason'] as const, registers: [registry] });
  const sealFailures = new Counter({ name: 'formsign_seal_failures_total', help: 'Seal attempts that failed (the seal job retries with backoff), by final (true: the last attempt, the form shows sealing failed).', labelNames: ['final'] as const, registers: [registry] });
  const deliveryFailures = new Counter({ name: 'formsign_delivery_failures_total', help: 'Delivery attempts that failed, by channel (webhook: the receiver answered other than 2xx or not at all; message: an e-mail or SMS attempt); each is retried with backoff.', labelNames: ['channel'] as const, registers: [registry] });
  const purged = new Counter({ name: 'formsign_forms_purged_total', help: 'Finished forms purged to their tombstone, by reason (retention: past the account\'s retention_days).', labelNames: ['reason'] as const, registers: [registry] });
  purged.inc({ reason: 'retention' }, 0);
  const oldestDue = sources.oldestDue;
  const seenKinds = new Set<string>();
  new Gauge({
    name: 'formsign_outbox_oldest_due_seconds',
    help: 'By job kind: how long the oldest job that is due and not yet claimed has waited for a worker (0 when none waits); read at scrape time. Growing: the workers do not keep up, or none runs.',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      if (!oldestDue) return;
      // The database being down must not fail the whole scrape (it would hide the connection-error
      // counters exactly when they matter): the gauge keeps its last values until a read succeeds.
      const rows = await oldestDue().catch(() => undefined);
      if (!rows) return;
      // A kind seen before shows 0 once drained, so its graph drops to 0 instead of ending.
      for (const kind of seenKinds) this.set({ kind }, 0);
      for (const row of rows) {
        seenKinds.add(row.kind);
        this.set({ kind: row.kind }, Math.max(0, row.ageSeconds));
      }
    },
  });
  const outboxDepth = sources.outboxDepth;
  new Gauge({
    name: 'formsign_outbox_jobs',
    help: 'Jobs waiting or stuck in the outbox, by kind and status (pending, running, failed, dead); read at scrape time.',
    labelNames: ['kind', 'status'] as const,
    registers: [registry],
    async collect() {
      if (!outboxDepth) return;
      const rows = await outboxDepth().catch(() => undefined); // as above: last values while the database is away
      if (!rows) return;
      this.reset();
      for (const row of rows) this.set({ kind: row.kind, status: row.status }, row.count);
    },
  });
  // Label lookups hash their values on every call; the children are kept per label set instead.
  const children = new Map<string, { count: { inc(): void }; time: { observe(v: number): void } }>();
  return {
    registry,
    observeRequest(method, route, status, seconds) {
      const cls = statusClass(status);
      const key = `${method} ${route} ${cls}`;
      let child = children.get(key);
      if (!child) {
        child = { count: requests.labels(method, route, cls), time: duration.labels(method, route, cls) };
        children.set(key, child);
      }
      child.count.inc();
      child.time.observe(seconds);
    },
    limited: (reason) => limited.inc({ reason }),
    redisFailOpen: () => failOpen.inc(),
    webhookAttempt: (outcome) => webhooks.inc({ outcome }),
    observeSeal: (seconds, ok) => seal.observe({ result: ok ? 'ok' : 'error' }, seconds),
    sealFailed: (final) => sealFailures.inc({ final: String(final) }),
    deliveryFailed: (channel) => deliveryFailures.inc({ channel }),
    databaseConnectionError: (connection) => connectionErrors.inc({ pool: connection }),
    slowUnit: () => slowUnits.inc(),
    tsaFailure: (url) => tsaFailures.inc({ tsa: url }),
    sealUntimestamped: () => untimestamped.inc(),
    sealCertificateRefused: (reason) => certificateRefused.inc({ reason }),
    storageFull: () => storageFull.inc(),
    formsPurged: (reason, count) => purged.inc({ reason }, count),
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
