import type { DomainDeps } from '../domain/context.js';
import type { Authenticator } from '../domain/keys/authenticate.js';
import type { Limits } from '../domain/limits/limits.js';
import type { Metrics } from '../lib/metrics.js';
import type { StorageHealth } from '../lib/storage-health.js';
import type { Partition } from '../lib/partition.js';
import type { OpenApiDocument } from './openapi.js';

/** Everything the HTTP layer needs, handed over by the composition root. */
export interface HttpServices {
  readonly domain: DomainDeps;
  readonly authenticator: Authenticator;
  readonly openapi: OpenApiDocument;
  /** The generated TypeScript declarations served at /api/v1/sdk/typescript. */
  readonly sdkSource: string;
  /** /readyz: the parts that cannot be reached now, named for a person ("the database", "S3 …"); empty when ready. */
  readonly unreachable: () => Promise<string[]>;
  /** /readyz: why seals are refused now (a revoked or expired signing certificate), if they are. */
  readonly sealing?: () => Promise<string | undefined>;
  /** The disk holding the data is full (issue 26): noted on a failed write, asked again by /readyz. */
  readonly storage?: StorageHealth;
  /** Per-endpoint windows and the monthly quota (issue 14); absent: no limits, no limit headers. */
  readonly limits?: Limits;
  /** Prometheus metrics at GET /metrics; absent: no such route. */
  readonly metrics?: Metrics;
  /** METRICS_TOKEN: the bearer token /metrics requires, if any. */
  readonly metricsToken?: string | undefined;
  /** TRUST_PROXY: the peers whose X-Forwarded-For names the client (Fastify's trustProxy); unset: none. */
  readonly trustProxy?: boolean | readonly string[];
  /**
   * Dashboard (issue 24): which channels keep their messages in the dev outbox (no SMTP_URL, no SMS
   * gateway); the dashboard shows the outbox only then. Absent: neither.
   */
  readonly devOutbox?: { readonly email: boolean; readonly sms: boolean };
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Set by the auth hook on key-authenticated routes only; route handlers receive it as an argument
     * (routes/route.ts), never from here.
     */
    partition?: Partition;
    /** The id of the API key that authenticated the request (who placed a legal hold, issue 40). */
    apiKeyId?: string;
  }
}
