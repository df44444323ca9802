// Outcomes of PDF work besides a result or a refused upload (PdfRejectedError in field.ts), and the
// options a caller submits work with. The domain maps each outcome to the contract's error; nothing
// here knows about HTTP.

/** The pool's queue is full (for everyone, or for this owner's share): try again later. */
export class PdfBusyError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('PDF processing is busy');
    this.name = 'PdfBusyError';
  }
}

/** The caller's AbortSignal fired (the client went away) before the job finished. */
export class PdfJobCancelledError extends Error {
  constructor() {
    super('The PDF job was cancelled');
    this.name = 'PdfJobCancelledError';
  }
}

/** Filling a stored template failed: it ran past its CPU time or memory limit, or crashed. */
export class PdfFillFailedError extends Error {
  constructor(readonly reason: 'time' | 'memory' | 'error', message: string) {
    super(message);
    this.name = 'PdfFillFailedError';
  }
}

/** How a caller submits PDF work: whose it is (fairness between accounts) and when to give up on it. */
export interface JobOptions {
  /** Jobs are scheduled round-robin between owners, each with a cap on running and queued jobs. */
  owner?: string;
  /** Aborting removes a queued job, or stops a running one (its worker is replaced). */
  signal?: AbortSignal | undefined;
  /**
   * `public`: work for someone without an account (the /verify page). It has its own queue, its own
   * worker threads at the lowest CPU priority and its own CPU limit, so it never delays an account's
   * seal, render or upload. Default: account work.
   */
  lane?: JobLane | undefined;
}

/** Which of the pool's queues a job waits in: account work, or the key-less public verifier's. */
export type JobLane = 'account' | 'public';

/**
 * A PDF handed to the pool: its bytes, or a file the worker reads itself (an upload streamed to disk),
 * so a large upload waiting for a worker costs disk, not memory.
 */
export type PdfSource = Uint8Array | { readonly path: string };

// ---- Evidence (issue 25): timestamps and long-term validation data for seals.

/** The RFC 3161 time-stamping authorities a seal asks, in order (TSA_URLS, TSA_USERNAME, TSA_PASSWORD). */
export interface TsaSettings {
  readonly urls: readonly string[];
  /** How long each TSA may take to answer. */
  readonly timeoutMs: number;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
}

/** One TSA that did not give a usable token, and why (a sentence fragment: "answered HTTP 500"). */
export interface TsaFailure {
  readonly url: string;
  readonly reason: string;
}

/**
 * The PAdES baseline level a seal reached, from what it holds: B-B, a signature; B-T, with a
 * timestamp on it; B-LT, with revocation data in the DSS for every certificate of the signing chain
 * and of that timestamp's TSA chain (trust anchors aside); B-LTA, with a document timestamp besides
 * whose TSA chain is covered too.
 */
export type SealLevel = 'B-B' | 'B-T' | 'B-LT' | 'B-LTA';

/** A sealed document, its level, and the TSAs that failed before one answered (for the metric). */
export interface SealResult {
  readonly pdf: Uint8Array;
  readonly level: SealLevel;
  readonly tsaFailures: readonly TsaFailure[];
}

/** Every configured TSA failed: the seal is not written (it never falls back to the local clock). */
export class TimestampUnavailableError extends Error {
  constructor(readonly failures: readonly TsaFailure[]) {
    super(`No time-stamping authority gave a timestamp: ${failures.map((f) => `${f.url} ${f.reason}`).join('; ')}`);
    this.name = 'TimestampUnavailableError';
  }
}

/**
 * The signing certificate (SIGNING_CERT_P12), or one of its issuers, is revoked according to the
 * revocation data fetched at sealing, or is outside its validity: nothing is sealed with it.
 */
export class SigningCertificateRefusedError extends Error {
  /** `message` as `certificateRefusal` words it (the pool passes it on from its worker as it is). */
  constructor(readonly reason: 'revoked' | 'expired', message: string) {
    super(message);
    this.name = 'SigningCertificateRefusedError';
  }
}

/** The refusal, naming the certificate and what says so: it becomes the form's `sealing.last_error`. */
export const certificateRefusal = (reason: 'revoked' | 'expired', detail: string): SigningCertificateRefusedError =>
  new SigningCertificateRefusedError(reason, `The signing certificate is ${reason}: ${detail}. No seal is written with it; replace SIGNING_CERT_P12.`);
