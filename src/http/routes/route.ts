import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Partition } from '../../lib/partition.js';
import type { HttpServices } from '../services.js';

export type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
/** A handler of a key-authenticated operation: it is handed the partition the key opened. */
export type PartitionHandler = (req: FastifyRequest, reply: FastifyReply, partition: Partition) => Promise<unknown>;

/** One route per operationId of openapi.yaml; method, path and schemas come from the document. */
export interface RouteDef {
  readonly operationId: string;
  /** Uploads read the multipart stream themselves instead of a JSON body. */
  readonly multipart?: boolean;
  /** Needs no key (`security: []` in openapi.yaml); app.ts refuses to start when the two disagree. */
  readonly public: boolean;
  readonly handler: (s: HttpServices) => Handler;
}

interface RouteSpec<H> {
  readonly operationId: string;
  readonly multipart?: boolean;
  readonly handler: (s: HttpServices) => H;
}

/**
 * A key-authenticated operation. The handler receives the partition as an argument rather than
 * reading it off the request, so a route cannot use a partition that is not there: a public route has
 * none to read, and an authenticated one whose auth hook did not run fails loudly instead of serving
 * another account's data by accident.
 */
export function defineRoute(spec: RouteSpec<PartitionHandler>): RouteDef {
  return {
    operationId: spec.operationId,
    ...(spec.multipart ? { multipart: true } : {}),
    public: false,
    handler: (s) => {
      const handle = spec.handler(s);
      return async (req, reply) => handle(req, reply, partitionOf(req));
    },
  };
}

/** An operation that needs no key (health, the presigned file download). */
export function definePublicRoute(spec: RouteSpec<Handler>): RouteDef {
  return { ...spec, public: true };
}

function partitionOf(req: FastifyRequest): Partition {
  if (!req.partition) throw new Error(`${req.method} ${req.routeOptions.url ?? ''} has no partition: its auth hook did not run`);
  return req.partition;
}
