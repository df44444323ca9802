import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.js';
import { migrateToLatest, openDatabase, ping, type DatabaseHandle } from './db/database.js';
import type { DomainDeps } from './domain/context.js';
import { createAuthenticator, type Authenticator } from './domain/keys/authenticate.js';
import { GENERATED_TYPES_PATH, loadOpenApiDocument } from './http/openapi.js';
import type { HttpServices } from './http/services.js';
import { systemClock, type Clock } from './lib/clock.js';
import { Lru } from './lib/lru.js';
import { createPdfInspector, createPdfRenderer } from './pdf/index.js';
import { createFsBlobStore, createS3BlobStore, type BlobStore } from './providers/blob/index.js';

// The composition root: the only place that constructs implementations or chooses them from config.

export interface Deps {
  readonly config: Config;
  readonly database: DatabaseHandle;
  readonly domain: DomainDeps;
  readonly authenticator: Authenticator;
  readonly http: HttpServices;
  close(): Promise<void>;
}

export interface DepsOptions {
  clock?: Clock;
  /** PostgreSQL schema (tests use a fresh one per run). */
  pgSchema?: string;
  /** Auth cache lifetime; revocations apply within this. */
  authCacheMs?: number;
}

export async function createDeps(config: Config, opts: DepsOptions = {}): Promise<Deps> {
  const database = openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    ...(opts.pgSchema ? { pgSchema: opts.pgSchema } : {}),
    // The store keeps working (the in-thread backstop takes over), but an operator should know.
    onCheckpointError: (message) => console.error(`formsign: background WAL checkpoint failed: ${message}`),
  });
  await migrateToLatest(database);
  const blobs = createBlobStore(config);
  const pdfInspector = createPdfInspector({ timeoutMs: 4000, maxOldGenerationSizeMb: 256 });
  const domain: DomainDeps = { db: database.db, transact: database.transact, clock: opts.clock ?? systemClock, blobs, pdfInspector, pdfRenderer: createPdfRenderer(), templateCache: new Lru(5000) };
  const authenticator = createAuthenticator(domain, { ttlMs: opts.authCacheMs ?? 2000, maxEntries: 10_000, touchEveryMs: 60_000 });
  const http: HttpServices = {
    domain,
    authenticator,
    openapi: loadOpenApiDocument(),
    sdkSource: fs.readFileSync(GENERATED_TYPES_PATH, 'utf8'),
    ready: async () => (await ping(database.db)) && (await blobs.ping()),
  };
  return {
    config,
    database,
    domain,
    authenticator,
    http,
    async close() {
      await pdfInspector.close();
      await database.close();
    },
  };
}

function createBlobStore(config: Config): BlobStore {
  if (config.s3) return createS3BlobStore({ ...config.s3, ...(config.s3.endpoint ? { endpoint: config.s3.endpoint } : {}) });
  return createFsBlobStore(path.join(config.dataDir, 'files'));
}
