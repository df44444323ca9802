// One pool of worker threads for all PDF work (inspect and fill; sealing adds a job kind). Each job
// runs alone on a worker with a CPU-time limit, a heap limit and the decode guard; a job past a limit
// is stopped by terminating its worker, which is replaced. The queue is bounded (callers get a
// PdfBusyError to answer 503 with), served round-robin between owners with a cap on each owner's
// running and waiting jobs, and a job whose caller gave up (AbortSignal) leaves the queue or is stopped.
import { Worker } from 'node:worker_threads';
import { PdfRejectedError } from '../field.js';
import { PdfBusyError, PdfFillFailedError, PdfJobCancelledError, TimestampUnavailableError, type JobOptions } from '../work.js';
import { FairQueue } from './fair-queue.js';
import type { JobKind, JobReply, JobRequest, JobResults, PdfJob, PoolWorkerData, WorkerReady } from './protocol.js';
import { threadCpuMs } from './thread-cpu.js';

export interface PdfPoolOptions {
  /** Worker threads (PDF_WORKERS). */
  workers: number;
  /** CPU time one job may use: the worker thread's own CPU time where Linux reports it, else the wall clock since the job started. */
  jobCpuMs: number;
  /** V8 old-generation heap of each worker. */
  maxOldGenerationSizeMb: number;
  /**
   * The most any one stream may inflate to (default: the heap). Far below the heap on purpose: a
   * 2 KB stream deflated twice inflates to 512 MiB, and inflating even the heap's worth of it took
   * seconds of a worker per upload, so eight at once queued for a minute (issue 26, defect 3).
   */
  maxDecodedStreamMb?: number;
  /** Jobs waiting for a worker, all owners together; past it, PdfBusyError. */
  maxQueued: number;
  /** Jobs of one owner running at once (default: half the workers, at least one). */
  perOwnerRunning?: number;
  /** Jobs of one owner waiting at once (default: a quarter of the queue, at least two). */
  perOwnerQueued?: number;
  /** CPU time the trial fill at import may take (default: a quarter of `jobCpuMs`, for headroom). */
  trialFillCpuMs?: number;
}

export interface PdfPool {
  run<K extends JobKind>(job: Extract<PdfJob, { kind: K }>, opts?: JobOptions): Promise<JobResults[K]>;
  readonly limits: Readonly<Required<PdfPoolOptions>>;
  close(): Promise<void>;
}

type Failure = 'time' | 'memory' | 'crash' | 'starved' | 'cancelled' | 'closed';

interface Pending {
  readonly id: number;
  readonly job: PdfJob;
  readonly owner: string;
  readonly resolve: (value: never) => void;
  readonly reject: (err: Error) => void;
  readonly signal: AbortSignal | undefined;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  tid: number | undefined;
  ready: boolean;
  job?: Pending;
  cpuAtStart?: number | undefined;
  startedAt?: number;
  timer?: NodeJS.Timeout;
  /** Set by the worker's 'error' event, read when it exits. */
  failure?: Failure | undefined;
}

// Run from src/ (tests, `npm run dev`) the thread needs worker.mjs to register tsx; compiled to dist/
// the job runner is plain JavaScript and is the thread's entry itself, so no tsx loads there.
const WORKER_URL = import.meta.url.endsWith('.ts') ? new URL('./worker.mjs', import.meta.url) : new URL('./worker-job.js', import.meta.url);
// Loading pdf-lib in a fresh thread takes well under a second on an idle machine, but 35 s was measured
// at a load of 40 on 2 cores (issue 36), where a 30 s limit failed uploads with 500s. A worker that cannot
// load at all (a broken install) fails at once with an error, not by this limit; the limit is for one that
// hangs, so it is generous.
const STARTUP_TIMEOUT_MS = 120_000;
// A job that used little CPU but ran this long on the wall clock (ten times its limit, at least a
// minute) is starved of CPU by the machine, not at fault: it is stopped and answered "busy", never
// "this PDF is too costly". Shared hosts stretch wall time three- to fivefold under load (measured).
const starvedAfterMs = (cpuMs: number): number => Math.max(10 * cpuMs, 60_000);
const TOO_SLOW = 'This PDF takes too long to read. It may be malformed; please upload a simpler copy.';
const TOO_BIG = 'This PDF needs more memory to read than Formsign allows. It may be malformed; please upload a simpler copy.';
const UNREADABLE = 'This PDF could not be read.';

export function createPdfPool(options: PdfPoolOptions): PdfPool {
  const limits: Required<PdfPoolOptions> = {
    perOwnerRunning: Math.max(1, Math.ceil(options.workers / 2)),
    perOwnerQueued: Math.max(2, Math.floor(options.maxQueued / 4)),
    // A real fill may carry longer values and other scripts than the trial: keep 4× headroom.
    trialFillCpuMs: options.jobCpuMs / 4,
    maxDecodedStreamMb: options.maxOldGenerationSizeMb,
    ...options,
  };
  const data: PoolWorkerData = {
    maxDecodedStreamBytes: limits.maxDecodedStreamMb * 1024 * 1024,
    trialFillCpuMs: limits.trialFillCpuMs,
  };
  const pollMs = Math.min(100, Math.max(10, limits.jobCpuMs / 20));
  const queue = new FairQueue<Pending>();
  const runningByOwner = new Map<string, number>();
  const slots: Slot[] = [];
  let nextId = 1;
  let closed = false;
  // Recent job durations, for the Retry-After estimate.
  let averageJobMs = 1000;

  function addSlot(): void {
    const worker = new Worker(WORKER_URL, { workerData: data, resourceLimits: { maxOldGenerationSizeMb: limits.maxOldGenerationSizeMb } });
    const slot: Slot = { worker, tid: undefined, ready: false };
    slots.push(slot);
    const startup = setTimeout(() => void worker.terminate(), STARTUP_TIMEOUT_MS);
    worker.on('message', (msg: WorkerReady | JobReply) => {
      if ('ready' in msg) {
        clearTimeout(startup);
        slot.ready = true;
        slot.tid = msg.tid;
        // An idle pool must not keep the process alive; a job refs its worker while it runs.
        worker.unref();
        pump();
        return;
      }
      if (slot.job && msg.id === slot.job.id) finish(slot, msg);
    });
    worker.on('error', (err: Error & { code?: string }) => {
      slot.failure = err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'crash';
    });
    worker.on('exit', () => {
      clearTimeout(startup);
      const wasReady = slot.ready;
      removeSlot(slot);
      if (slot.job) fail(slot, slot.failure ?? (closed ? 'closed' : 'crash'));
      // A worker that never started means none will: do not spin, tell the waiting callers.
      if (!wasReady && !closed && !slots.some((s) => s.ready)) {
        for (const p of queue.drain()) settle(p, () => p.reject(new Error('The PDF worker thread could not start')));
      }
      pump();
    });
  }

  function removeSlot(slot: Slot): void {
    const at = slots.indexOf(slot);
    if (at >= 0) slots.splice(at, 1);
  }

  const canRun = (owner: string): boolean => (runningByOwner.get(owner) ?? 0) < limits.perOwnerRunning;

  function pump(): void {
    if (closed) return;
    while (queue.size > 0) {
      const idle = slots.find((s) => s.ready && !s.job);
      if (!idle) {
        while (slots.length < limits.workers) addSlot();
        return;
      }
      const next = queue.take(canRun);
      if (!next) return;
      start(idle, next);
    }
  }

  function start(slot: Slot, p: Pending): void {
    slot.job = p;
    slot.failure = undefined;
    runningByOwner.set(p.owner, (runningByOwner.get(p.owner) ?? 0) + 1);
    const { message, transfer } = requestFor(p);
    slot.worker.ref();
    // The clocks start now, never while queued.
    slot.startedAt = performance.now();
    slot.cpuAtStart = slot.tid === undefined ? undefined : threadCpuMs(slot.tid);
    slot.timer = setInterval(() => watch(slot), pollMs);
    slot.worker.postMessage(message, transfer);
  }

  function watch(slot: Slot): void {
    if (!slot.job || slot.startedAt === undefined) return;
    const wall = performance.now() - slot.startedAt;
    const cpuNow = slot.tid === undefined ? undefined : threadCpuMs(slot.tid);
    const cpu = cpuNow !== undefined && slot.cpuAtStart !== undefined ? cpuNow - slot.cpuAtStart : wall;
    if (cpu > limits.jobCpuMs) stop(slot, 'time');
    else if (wall > starvedAfterMs(limits.jobCpuMs)) stop(slot, 'starved');
  }

  /** Ends the running job with `failure`; its worker is terminated and replaced. */
  function stop(slot: Slot, failure: Failure): void {
    if (!slot.job) return;
    fail(slot, failure);
    removeSlot(slot);
    void slot.worker.terminate();
    pump();
  }

  function release(slot: Slot): Pending | undefined {
    const p = slot.job;
    if (!p) return undefined;
    clearInterval(slot.timer);
    slot.job = undefined;
    const running = (runningByOwner.get(p.owner) ?? 1) - 1;
    if (running > 0) runningByOwner.set(p.owner, running);
    else runningByOwner.delete(p.owner);
    if (slot.startedAt !== undefined) averageJobMs = averageJobMs * 0.8 + (performance.now() - slot.startedAt) * 0.2;
    slot.worker.unref();
    return p;
  }

  function finish(slot: Slot, reply: JobReply): void {
    const p = release(slot);
    if (!p) return;
    settle(p, () => {
      if (!reply.ok) {
        p.reject(reply.rejection ? new PdfRejectedError(reply.rejection, reply.message)
          : reply.tsaFailures ? new TimestampUnavailableError(reply.tsaFailures)
          : p.job.kind === 'inspect' || p.job.kind === 'verify' ? new PdfRejectedError('pdf_invalid', UNREADABLE) : new PdfFillFailedError('error', reply.message));
      } else if (reply.kind === 'inspect' && p.job.kind === 'inspect') {
        const { pageCount, fields, warnings, pdf } = reply;
        (p.resolve as (v: JobResults['inspect']) => void)({ pageCount, fields, warnings, pdf });
      } else if (reply.kind === 'verify') {
        (p.resolve as (v: JobResults['verify']) => void)(reply.verification);
      } else if (reply.kind === 'generate') {
        (p.resolve as (v: JobResults['generate']) => void)({ pdf: reply.pdf, fields: reply.fields, pageCount: reply.pageCount });
      } else if (reply.kind === 'seal') {
        (p.resolve as (v: JobResults['seal']) => void)({ pdf: reply.pdf, level: reply.level, tsaFailures: reply.tsaFailures });
      } else if (reply.kind === 'fill' || reply.kind === 'preview' || reply.kind === 'audit') {
        (p.resolve as (v: Uint8Array) => void)(reply.pdf);
      }
    });
    pump();
  }

  function fail(slot: Slot, failure: Failure): void {
    const p = release(slot);
    if (p) settle(p, () => p.reject(errorFor(p.job.kind, failure)));
  }

  function errorFor(kind: JobKind, failure: Failure): Error {
    if (failure === 'cancelled') return new PdfJobCancelledError();
    if (failure === 'closed') return new Error('The PDF pool was closed');
    if (failure === 'starved') return new PdfBusyError(retryAfter());
    const seconds = Math.round(limits.jobCpuMs / 100) / 10;
    if (kind === 'inspect' || kind === 'verify') return new PdfRejectedError('pdf_invalid', failure === 'time' ? TOO_SLOW : failure === 'memory' ? TOO_BIG : UNREADABLE);
    const doing = kind === 'audit' ? 'Drawing the audit trail of' : kind === 'seal' ? 'Sealing' : kind === 'preview' ? 'Outlining the fields of' : kind === 'generate' ? 'Generating' : 'Filling';
    if (failure === 'time') return new PdfFillFailedError('time', `${doing} this PDF took more than the ${seconds} s of processing Formsign allows for one document.`);
    if (failure === 'memory') return new PdfFillFailedError('memory', `${doing} this PDF needed more than the ${limits.maxOldGenerationSizeMb} MiB of memory Formsign allows for one document.`);
    return new PdfFillFailedError('error', `The PDF worker stopped while ${doing.toLowerCase()} this PDF.`);
  }

  function settle(p: Pending, outcome: () => void): void {
    if (p.onAbort) p.signal?.removeEventListener('abort', p.onAbort);
    outcome();
  }

  function retryAfter(): number {
    const waves = Math.ceil((queue.size + 1) / limits.workers);
    return Math.min(60, Math.max(1, Math.ceil((waves * averageJobMs) / 1000)));
  }

  function cancel(p: Pending): void {
    if (queue.remove(p.owner, p)) return settle(p, () => p.reject(new PdfJobCancelledError()));
    const slot = slots.find((s) => s.job === p);
    if (slot) stop(slot, 'cancelled');
  }

  return {
    limits,
    run<K extends JobKind>(job: Extract<PdfJob, { kind: K }>, opts: JobOptions = {}): Promise<JobResults[K]> {
      if (closed) return Promise.reject(new Error('The PDF pool was closed'));
      const { signal } = opts;
      if (signal?.aborted) return Promise.reject(new PdfJobCancelledError());
      const owner = opts.owner ?? '';
      if (queue.size >= limits.maxQueued || queue.sizeOf(owner) >= limits.perOwnerQueued) {
        return Promise.reject(new PdfBusyError(retryAfter()));
      }
      return new Promise<JobResults[K]>((resolve, reject) => {
        const p: Pending = { id: nextId++, job, owner, resolve: resolve as (v: never) => void, reject, signal };
        if (signal) {
          p.onAbort = () => cancel(p);
          signal.addEventListener('abort', p.onAbort, { once: true });
        }
        queue.push(owner, p);
        pump();
      });
    },
    async close() {
      closed = true;
      // Running jobs see their worker exit and reject as closed; waiting ones are told after, so a
      // caller awaiting close() can still attach its handlers.
      await Promise.all([...slots].map((s) => s.worker.terminate()));
      for (const p of queue.drain()) settle(p, () => p.reject(new Error('The PDF pool was closed')));
    },
  };
}

/** The message for a job: the worker gets its own copy of the bytes, transferred rather than cloned. */
function requestFor(p: Pending): { message: JobRequest; transfer: ArrayBuffer[] } {
  const { job } = p;
  if (job.kind === 'inspect' || job.kind === 'verify') {
    if (!(job.source instanceof Uint8Array)) return { message: { id: p.id, job }, transfer: [] };
    const bytes = new Uint8Array(job.source);
    return { message: { id: p.id, job: { ...job, source: bytes } }, transfer: [bytes.buffer] };
  }
  if (job.kind === 'seal' || job.kind === 'generate' || job.kind === 'audit') {
    // Cloned: the request's images and document stay the caller's (a retried job may need them).
    return { message: { id: p.id, job }, transfer: [] };
  }
  const pdf = new Uint8Array(job.pdf);
  return { message: { id: p.id, job: { ...job, pdf } }, transfer: [pdf.buffer] };
}
