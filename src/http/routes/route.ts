import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HttpServices } from '../services.js';

export type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** One route per operationId of openapi.yaml; method, path and schemas come from the document. */
export interface RouteDef {
  readonly operationId: string;
  /** Uploads read the multipart stream themselves instead of a JSON body. */
  readonly multipart?: boolean;
  readonly handler: (s: HttpServices) => Handler;
}

export function defineRoute(def: RouteDef): RouteDef {
  return def;
}
