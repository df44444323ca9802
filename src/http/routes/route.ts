import type { FastifyReply, FastifyRequest } from 'fastify';
import type { operations } from '../../generated/api.js';
import type { PreparedWrite } from '../../domain/prepared-write.js';
import type { Partition } from '../../lib/partition.js';
import { sendAnswer, type Answer } from '../answer.js';
import { idempotencySlotOf, uploadKeyUnclaimed } from '../plugins/idempotency.js';
import type { HttpServices } from '../services.js';

export type OperationId = keyof operations;

type JsonBodyOf<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/**
 * The request of operation `Id` as its handler sees it: path parameters, query and JSON body typed from
 * src/generated/api.d.ts, which `npm run generate` makes from openapi.yaml. What an operation does not
 * have is `never`, so reading it does not compile; change a request's shape in openapi.yaml, regenerate,
 * and every handler that no longer fits fails to compile. The types hold because app.ts validates each
 * request against the same operation's schemas before its handler runs (http/plugins/validation.ts).
 */
export type OperationRequest<Id extends OperationId> = FastifyRequest<{
  Params: NonNullable<operations[Id]['parameters']['path']>;
  Querystring: NonNullable<operations[Id]['parameters']['query']>;
  Body: JsonBodyOf<operations[Id]>;
}>;

export type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
type OperationHandler<Id extends OperationId> = (req: OperationRequest<Id>, reply: FastifyReply) => Promise<unknown>;
/** A handler of a key-authenticated operation: it is handed the partition the key opened. */
type PartitionHandler<Id extends OperationId> = (req: OperationRequest<Id>, reply: FastifyReply, partition: Partition) => Promise<unknown>;

/** One route per operationId of openapi.yaml; method, path and schemas come from the document. */
export interface RouteDef {
  readonly operationId: string;
  /** Uploads read the multipart stream themselves instead of a JSON body. */
  readonly multipart?: boolean;
  /** Needs no key (`security: []` in openapi.yaml); app.ts refuses to start when the two disagree. */
  readonly public: boolean;
  /** Answers from inside the transaction of its write (defineWriteRoute), so its idempotent answer is stored there. */
  readonly write?: boolean;
  /** A POST that changes nothing (a check, a computation): its idempotent answer is stored on its own. */
  readonly writesNothing?: boolean;
  readonly handler: (s: HttpServices) => Handler;
}

interface RouteSpec<Id extends OperationId, H> {
  readonly operationId: Id;
  readonly multipart?: boolean;
  /**
   * Says that this POST writes nothing, so it need not be a write route (defineWriteRoute): its
   * Idempotency-Key answer is stored after it, on its own. A POST that writes must not say this.
   */
  readonly writesNothing?: true;
  readonly handler: (s: HttpServices) => H;
}

/**
 * The one place a request meets its operation's types. Fastify hands every route the same untyped
 * request; app.ts registers this handler only on the route of `operationId`, with that operation's
 * schemas, so the request has been validated to the shape OperationRequest<Id> names.
 */
function asOperationRequest<Id extends OperationId>(req: FastifyRequest): OperationRequest<Id> {
  return req as OperationRequest<Id>;
}

/**
 * A key-authenticated operation. The handler receives the partition as an argument rather than
 * reading it off the request, so a route cannot use a partition that is not there: a public route has
 * none to read, and an authenticated one whose auth hook did not run fails loudly instead of serving
 * another account's data by accident.
 */
export function defineRoute<Id extends OperationId>(spec: RouteSpec<Id, PartitionHandler<Id>>): RouteDef {
  return routeDef(spec, false, (handle) => async (req, reply) => handle(asOperationRequest<Id>(req), reply, partitionOf(req)));
}

interface WriteSpec<Id extends OperationId, R> {
  readonly operationId: Id;
  readonly multipart?: boolean;
  /**
   * The reads and checks of the use case, resolving to the write it prepared (`PreparedWrite`). Runs
   * once the request holds its `Idempotency-Key`, if it sent one. An upload claims its key itself once
   * it has read the parts (`claimUploadKey`), and resolves to undefined when that replayed the answer.
   */
  readonly prepare: (s: HttpServices) => (req: OperationRequest<Id>, p: Partition, reply: FastifyReply) => Promise<PreparedWrite<R> | undefined>;
  /** The answer, made from the write's result inside its transaction: synchronous, nothing left to fail. */
  readonly answer: (result: R) => Answer;
}

/**
 * A key-authenticated operation that writes (every POST of the API is one; a test keeps it so). The
 * prepared write and the answer made from its result commit in ONE transaction together with the
 * request's `Idempotency-Key` record, so a crash leaves the write and its stored answer both or neither,
 * and a retry after it replays exactly the bytes the first call would have received.
 */
export function defineWriteRoute<Id extends OperationId, R>(spec: WriteSpec<Id, R>): RouteDef {
  return {
    operationId: spec.operationId,
    ...(spec.multipart ? { multipart: true } : {}),
    public: false,
    write: true,
    handler: (s) => {
      const prepare = spec.prepare(s);
      return async (req, reply) => {
        const write = await prepare(asOperationRequest<Id>(req), partitionOf(req), reply);
        if (uploadKeyUnclaimed(req)) throw new Error(`${spec.operationId} read an upload sent with an Idempotency-Key without claiming the key (claimUploadKey)`);
        if (write === undefined) return reply;
        const slot = idempotencySlotOf(req);
        const answer = await s.domain.transact(async (trx) => {
          const a = spec.answer(await write(trx));
          if (slot) await slot.store(trx, a);
          return a;
        });
        // Only now is the key answered: had the commit failed, the slot would still be open and the
        // error's 5xx would give the key back (plugins/idempotency.ts), so a retry runs instead of a 409.
        slot?.committed();
        return sendAnswer(reply, answer);
      };
    },
  };
}

/** An operation that needs no key (health, the presigned file download). */
export function definePublicRoute<Id extends OperationId>(spec: RouteSpec<Id, OperationHandler<Id>>): RouteDef {
  return routeDef(spec, true, (handle) => async (req, reply) => handle(asOperationRequest<Id>(req), reply));
}

function routeDef<H>(spec: RouteSpec<OperationId, H>, isPublic: boolean, bind: (handle: H) => Handler): RouteDef {
  return {
    operationId: spec.operationId,
    ...(spec.multipart ? { multipart: true } : {}),
    ...(spec.writesNothing ? { writesNothing: true } : {}),
    public: isPublic,
    handler: (s) => bind(spec.handler(s)),
  };
}

/**
 * The registry's rule for an authenticated POST (every one takes an Idempotency-Key): it must be a
 * write route, whose answer is stored in its write's own transaction, or say `writesNothing` (then its
 * answer is stored on its own, with nothing to lose). A POST defined with plain defineRoute would store
 * its answer after its commit, where a crash between the two loses it: app.ts refuses to start with one.
 */
export function assertPostIsWriteRoute(def: RouteDef, method: string, isPublic: boolean): void {
  if (method !== 'POST' || isPublic || def.write === true || def.writesNothing === true) return;
  throw new Error(`POST operation ${def.operationId} must be defined with defineWriteRoute (its Idempotency-Key answer is stored in the transaction of its write), or with writesNothing: true if it changes nothing`);
}

function partitionOf(req: FastifyRequest): Partition {
  if (!req.partition) throw new Error(`${req.method} ${req.routeOptions.url ?? ''} has no partition: its auth hook did not run`);
  return req.partition;
}
