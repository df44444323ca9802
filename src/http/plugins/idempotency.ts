import { createHash, type Hash } from 'node:crypto';
import { pipeline, Transform } from 'node:stream';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, onSendHookHandler, preHandlerHookHandler, preParsingHookHandler } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import { IdempotencySlot } from '../../domain/idempotency/idempotency-slot.js';
import { checkIdempotencyKey } from '../../domain/idempotency/key-rules.js';
import type { Limits } from '../../domain/limits/limits.js';
import { sendAnswer } from '../answer.js';

// `Idempotency-Key` on every authenticated POST (app.ts installs these three hooks on each one, so a
// new POST operation has them without asking). preParsing hashes the body as it is read; preHandler
// claims the key, replays a stored answer or refuses; the answer is stored in the transaction of the
// write by write routes (routes/route.ts defineWriteRoute), and by onSend for an answer that made no
// write (a 4xx, a read-only operation). A 5xx is not stored: the key is given back.

/** Headers replayed with a stored answer besides those a write route names: what describes the body. */
const KEPT_HEADERS = ['content-type', 'location', 'x-service-prefill-unmatched'];

interface KeyedRequest {
  hash: Hash;
  slot?: IdempotencySlot;
  /** An upload's key, claimed once the route has read the parts (claimUploadKey). */
  deferred?: { key: string; o: IdempotencyHookOptions };
}

const keyed = new WeakMap<FastifyRequest, KeyedRequest>();

/** The slot of a request that holds its key and has not answered yet (write routes store into it). */
export function idempotencySlotOf(req: FastifyRequest): IdempotencySlot | undefined {
  const slot = keyed.get(req)?.slot;
  return slot?.open ? slot : undefined;
}

const HEADER = 'idempotency-key';

const isUpload = (req: FastifyRequest): boolean => (req.headers['content-type'] ?? '').trimStart().toLowerCase().startsWith('multipart/');

/** True when an upload's key still waits for its route to claim it (a route that forgot is a bug: route.ts throws). */
export function uploadKeyUnclaimed(req: FastifyRequest): boolean {
  return keyed.get(req)?.deferred !== undefined;
}

/**
 * The request's fingerprint: method, path and query, and the body's bytes exactly as sent. Only for
 * requests that carry a key; the body passes through unchanged as Fastify reads it.
 */
export const hashRequestBody: preParsingHookHandler = (req, _reply, payload, done) => {
  // An upload is read by the multipart parser from the raw request, not from this stream: its route
  // fingerprints the parts it read instead (claimUploadKey).
  if (req.headers[HEADER] === undefined || isUpload(req)) return done(null, payload);
  const hash = createHash('sha256').update(`${req.method} ${req.url}\n`);
  keyed.set(req, { hash });
  const tap = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      cb(null, chunk);
    },
  });
  // pipeline, not pipe: a client that goes away mid-body destroys the tap too, so Fastify sees the error.
  pipeline(payload, tap, () => undefined);
  done(null, tap);
};

export interface IdempotencyHookOptions {
  readonly domain: Pick<DomainDeps, 'transact' | 'transactReplayable' | 'clock'>;
  readonly limits: Limits | undefined;
  /** The route template, as the limits count it. */
  readonly route: string;
}

/**
 * After validation: checks the key, then runs the request, replays its stored answer, or refuses it
 * with 409. Callback style: a POST without a key (the usual case) costs no promise here.
 */
export function claimIdempotencyKey(o: IdempotencyHookOptions): preHandlerHookHandler {
  return function (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
    if (req.headers[HEADER] === undefined) return done();
    take(req, reply, o).then((replayed) => {
      // A replay has answered already: the chain stops here (done is not called).
      if (!replayed) done();
    }, (err: Error) => done(err));
  };
}

/**
 * The key as sent. Node joins a repeated header into one value ("a, b"), which would be taken for one
 * key: the raw headers tell two headers apart from one, and several are refused (key-rules.ts).
 */
function sentKeys(req: FastifyRequest): string | string[] | undefined {
  const values: string[] = [];
  for (let i = 0; i < req.raw.rawHeaders.length; i += 2) {
    if (req.raw.rawHeaders[i]!.toLowerCase() === HEADER) values.push(req.raw.rawHeaders[i + 1]!);
  }
  return values.length > 1 ? values : req.headers[HEADER];
}

/** True when the stored answer was replayed. */
async function take(req: FastifyRequest, reply: FastifyReply, o: IdempotencyHookOptions): Promise<boolean> {
  const key = checkIdempotencyKey(sentKeys(req))!;
  if (!req.partition) throw new Error(`${req.method} ${o.route} has no partition: the idempotency hook runs after the auth hook`);
  // A request without a body never had it read: its fingerprint is method and path alone.
  const state = keyed.get(req) ?? { hash: createHash('sha256').update(`${req.method} ${req.url}\n`) };
  keyed.set(req, state);
  if (isUpload(req)) {
    state.deferred = { key, o };
    return false;
  }
  return claim(req, reply, o, key, state, state.hash.digest('hex'));
}

/** Claims the key; true when the stored answer was replayed instead (the reply is sent). */
async function claim(req: FastifyRequest, reply: FastifyReply, o: IdempotencyHookOptions, key: string, state: KeyedRequest, hashHex: string): Promise<boolean> {
  const p = req.partition!;
  const slot = new IdempotencySlot(o.domain, p, key, hashHex, req.id);
  const outcome = await slot.claim();
  if (outcome.kind === 'replay') {
    // The call it repeats was counted toward the month already.
    o.limits?.refund(p.accountId, req.method, o.route);
    sendAnswer(reply, outcome.answer, true);
    return true;
  }
  state.slot = slot;
  return false;
}

/**
 * An upload's key, claimed once its route has read the parts: the fingerprint is method, path and the
 * parts' content (the multipart boundary differs on every send of the same upload). True when the
 * stored answer was replayed instead, and the route must stop.
 */
export async function claimUploadKey(req: FastifyRequest, reply: FastifyReply, partsDigest: string): Promise<boolean> {
  const state = keyed.get(req);
  if (!state?.deferred) return false;
  const { key, o } = state.deferred;
  state.deferred = undefined;
  return claim(req, reply, o, key, state, state.hash.update(partsDigest).digest('hex'));
}

/**
 * Before an answer leaves: one that a write route did not store already is stored now (it made no
 * write: a refusal, a read-only operation), or for a 5xx the key is given back.
 */
export const storeUnwrittenAnswer: onSendHookHandler = (req, reply, payload, done) => {
  const slot = idempotencySlotOf(req);
  if (!slot) return done(null, payload);
  settle(slot, reply, payload).then(() => done(null, payload), (err: Error) => done(err));
};

async function settle(slot: IdempotencySlot, reply: FastifyReply, payload: unknown): Promise<void> {
  // Releasing the key after a 5xx may itself fail (the 503 was the database going away): the claim
  // then ends with its lease, and the answer already chosen (the contract's 503) still goes out.
  // Failing the hook instead would send Fastify's own error body (found by the cluster fault test).
  if (reply.statusCode >= 500 || !(typeof payload === 'string' || Buffer.isBuffer(payload))) {
    return slot.release().catch((err: unknown) => reply.request.log.warn({ err }, 'idempotency key not released; it is free again when its lease ends'));
  }
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  await slot.storeAlone({ status: reply.statusCode, headers, body: payload.toString() });
}
