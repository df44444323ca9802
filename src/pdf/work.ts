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
}

/**
 * A PDF handed to the pool: its bytes, or a file the worker reads itself (an upload streamed to disk),
 * so a large upload waiting for a worker costs disk, not memory.
 */
export type PdfSource = Uint8Array | { readonly path: string };
