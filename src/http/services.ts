import type { DomainDeps } from '../domain/context.js';
import type { Authenticator } from '../domain/keys/authenticate.js';
import type { Partition } from '../lib/partition.js';
import type { OpenApiDocument } from './openapi.js';

/** Everything the HTTP layer needs, handed over by the composition root. */
export interface HttpServices {
  readonly domain: DomainDeps;
  readonly authenticator: Authenticator;
  readonly openapi: OpenApiDocument;
  /** The generated TypeScript declarations served at /api/v1/sdk/typescript. */
  readonly sdkSource: string;
  readonly ready: () => Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Set by the auth hook on key-authenticated routes only; route handlers receive it as an argument
     * (routes/route.ts), never from here.
     */
    partition?: Partition;
  }
}
