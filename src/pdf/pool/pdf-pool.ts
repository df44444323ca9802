// One pool of worker threads for all PDF work (inspect and fill; sealing adds a job kind). Each job
// runs alone on a worker with a CPU-time limit, a heap limit and the decode guard; a job past a limit
// is stopped by terminating its worker, which is replaced. The queue is bounded (callers get a
// PdfBusyError to answer 503 with), served round-robin between owners with a cap on each owner's
// running and waiting jobs, and a job whose caller gave up (AbortSignal) leaves the queue or is stopped.
// Two lanes: account work, and the key-less public verifier's, which has its own bounded queue, its own
// threads at the lowest CPU priority, so no public upload delays an account's
// seal, render or upload (issue 35: three 400-byte PDFs sent to /verify held every seal for 15 s).
// Every job is answered within `deadlineMs` of its submission, queue included: a busy answer, never a
// request left waiting until the idle-socket timeout closes it without one.
import { setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { PdfRejectedError } from '../field.js';
import { PdfBusyError, PdfFillFailedError, PdfJobCancelledError, SigningCertificateRefusedError, TimestampUnavailableError, type JobLane, type JobOptions } from '../work.js';
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
  /**
   * From submission to answer, queue included, at most this (default 90 s, under the HTTP idle-socket
   * timeout of 120 s): a job still waiting, or running starved of CPU, is then answered PdfBusyError.
   */
  deadlineMs?: number;
  /** Threads of the public lane, besides `workers` (default 1); they run at the lowest CPU priority. */
  publicWorkers?: number;
  /** Jobs waiting in the public lane, all addresses together (default 8); past it, PdfBusyError. */
  publicQueued?: number;
  /** Jobs of one owner (one address) in the public lane, running and waiting (default 2). */
  publicPerOwner?: number;
  /**
   * CPU time one verification may use, in either lane (default 3 s, at most `jobCpuMs`: checking this
   * service's own seal takes a few hundred ms); past it the PDF is `pdf_too_complex`, not worked on.
   */
  verifyCpuMs?: number;
}

/** What each lane is doing now (tests, metrics). */
export interface PoolLoad {
  running: number;
  queued: number;
}

export interface PdfPool {
  run<K extends JobKind>(job: Extract<PdfJob, { kind: K }>, opts?: JobOptions): Promise<JobResults[K]>;
  readonly limits: Readonly<Required<PdfPoolOptions>>;
  load(lane: JobLane): PoolLoad;
  close(): Promise<void>;
}

type Failure = 'time' | 'memory' | 'crash' | 'starved' | 'cancelled' | 'closed';

interface Pending {
  readonly id: number;
  readonly job: PdfJob;
  readonly owner: string;
  readonly lane: Lane;
  readonly resolve: (value: never) => void;
  readonly reject: (err: Error) => void;
  readonly signal: AbortSignal | undefined;
  onAbort?: () => void;
  /** Fires at the job's deadline. */
  deadline?: NodeJS.Timeout;
}

/** One queue with its own threads and limits. */
interface Lane {
  readonly name: JobLane;
  readonly queue: FairQueue<Pending>;
  readonly runningByOwner: Map<string, number>;
  readonly workers: number;
  readonly maxQueued: number;
  /** Running and waiting jobs one owner may have: a fixed sum, so admission does not depend on whether a job has started yet. */
  readonly perOwnerAdmitted: number;
  readonly perOwnerRunning: number;
  /** Recent job durations, for the Retry-After estimate. */
  averageJobMs: number;
}

interface Slot {
  lane: Lane;
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
const TOO_COMPLEX = (seconds: number): string => `Checking this PDF's signatures takes more than the ${seconds} s of processing Formsign allows for one document: it is built to be costly to read (huge or deeply nested objects, many revisions, compressed bombs).`;
// Nice 19: the public lane's threads get a core only when account work leaves one free.
const LOWEST_PRIORITY = 19;

export function createPdfPool(options: PdfPoolOptions): PdfPool {
  const limits: Required<PdfPoolOptions> = {
    perOwnerRunning: Math.max(1, Math.ceil(options.workers / 2)),
    perOwnerQueued: Math.max(2, Math.floor(options.maxQueued / 4)),
    // A real fill may carry longer values and other scripts than the trial: keep 4× headroom.
    trialFillCpuMs: options.jobCpuMs / 4,
    maxDecodedStreamMb: options.maxOldGenerationSizeMb,
    deadlineMs: 90_000,
    publicWorkers: 1,
    publicQueued: 8,
    publicPerOwner: 2,
    verifyCpuMs: Math.min(3_000, options.jobCpuMs),
    ...options,
  };
  const data: PoolWorkerData = {
    maxDecodedStreamBytes: limits.maxDecodedStreamMb * 1024 * 1024,
    trialFillCpuMs: limits.trialFillCpuMs,
  };
  const pollMs = Math.min(100, Math.max(10, Math.min(limits.jobCpuMs, limits.verifyCpuMs) / 20));
  const cpuLimitOf = (kind: JobKind): number => (kind === 'verify' ? limits.verifyCpuMs : limits.jobCpuMs);
  const lane = (name: JobLane, l: Omit<Lane, 'name' | 'queue' | 'runningByOwner' | 'averageJobMs'>): Lane =>
    ({ name, queue: new FairQueue<Pending>(), runningByOwner: new Map(), averageJobMs: 1000, ...l });
  const lanes: Record<JobLane, Lane> = {
    account: lane('account', {
      workers: limits.workers, maxQueued: limits.maxQueued, perOwnerRunning: limits.perOwnerRunning,
      perOwnerAdmitted: limits.perOwnerRunning + limits.perOwnerQueued,
    }),
    public: lane('public', {
      workers: limits.publicWorkers, maxQueued: limits.publicQueued, perOwnerRunning: 1,
      perOwnerAdmitted: limits.publicPerOwner,
    }),
  };
  const slots: Slot[] = [];
  let nextId = 1;
  let closed = false;

  function addSlot(lane: Lane): void {
    const worker = new Worker(WORKER_URL, { workerData: data, resourceLimits: { maxOldGenerationSizeMb: limits.maxOldGenerationSizeMb } });
    const slot: Slot = { lane, worker, tid: undefined, ready: false };
    slots.push(slot);
    const startup = setTimeout(() => void worker.terminate(), STARTUP_TIMEOUT_MS);
    worker.on('message', (msg: WorkerReady | JobReply) => {
      if ('ready' in msg) {
        clearTimeout(startup);
        slot.ready = true;
        slot.tid = msg.tid;
        if (lane.name === 'public' && msg.tid !== undefined) lowerPriority(msg.tid);
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
      if (!wasReady && !closed && !slots.some((s) => s.ready && s.lane === lane)) {
        for (const p of lane.queue.drain()) settle(p, () => p.reject(new Error('The PDF worker thread could not start')));
      }
      pump();
    });
  }

  function removeSlot(slot: Slot): void {
    const at = slots.indexOf(slot);
    if (at >= 0) slots.splice(at, 1);
  }

  const runningOf = (lane: Lane, owner: string): number => lane.runningByOwner.get(owner) ?? 0;

  function pump(): void {
    if (closed) return;
    for (const lane of Object.values(lanes)) pumpLane(lane);
  }

  function pumpLane(lane: Lane): void {
    while (lane.queue.size > 0) {
      const idle = slots.find((s) => s.lane === lane && s.ready && !s.job);
      if (!idle) {
        while (slots.filter((s) => s.lane === lane).length < lane.workers) addSlot(lane);
        return;
      }
      const next = lane.queue.take((owner) => runningOf(lane, owner) < lane.perOwnerRunning);
      if (!next) return;
      start(idle, next);
    }
  }

  function start(slot: Slot, p: Pending): void {
    slot.job = p;
    slot.failure = undefined;
    slot.lane.runningByOwner.set(p.owner, runningOf(slot.lane, p.owner) + 1);
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
    const limit = cpuLimitOf(slot.job.job.kind);
    if (cpu > limit) stop(slot, 'time');
    else if (wall > starvedAfterMs(limit)) stop(slot, 'starved');
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
    const { lane } = slot;
    const running = (lane.runningByOwner.get(p.owner) ?? 1) - 1;
    if (running > 0) lane.runningByOwner.set(p.owner, running);
    else lane.runningByOwner.delete(p.owner);
    if (slot.startedAt !== undefined) lane.averageJobMs = lane.averageJobMs * 0.8 + (performance.now() - slot.startedAt) * 0.2;
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
          : reply.certificate ? new SigningCertificateRefusedError(reply.certificate, reply.message)
          : p.job.kind === 'inspect' || p.job.kind === 'verify' ? new PdfRejectedError('pdf_invalid', UNREADABLE) : new PdfFillFailedError('error', reply.message));
      } else if (reply.kind === 'inspect' && p.job.kind === 'inspect') {
        const { pageCount, pageSizes, fields, warnings, pdf, roles } = reply;
        (p.resolve as (v: JobResults['inspect']) => void)({ pageCount, pageSizes, fields, warnings, pdf, roles });
      } else if (reply.kind === 'pages') {
        (p.resolve as (v: JobResults['pages']) => void)(reply.pageSizes);
      } else if (reply.kind === 'verify') {
        (p.resolve as (v: JobResults['verify']) => void)(reply.verification);
      } else if (reply.kind === 'generate') {
        (p.resolve as (v: JobResults['generate']) => void)({ pdf: reply.pdf, fields: reply.fields, pageCount: reply.pageCount });
      } else if (reply.kind === 'seal') {
        (p.resolve as (v: JobResults['seal']) => void)({ pdf: reply.pdf, level: reply.level, tsaFailures: reply.tsaFailures });
      } else if (reply.kind === 'fill' || reply.kind === 'preview' || reply.kind === 'audit' || reply.kind === 'image') {
        (p.resolve as (v: Uint8Array) => void)(reply.pdf);
      }
    });
    pump();
  }

  function fail(slot: Slot, failure: Failure): void {
    const p = release(slot);
    if (p) settle(p, () => p.reject(errorFor(p, failure)));
  }

  function errorFor({ job: { kind }, lane }: Pending, failure: Failure): Error {
    if (failure === 'cancelled') return new PdfJobCancelledError();
    if (failure === 'closed') return new Error('The PDF pool was closed');
    if (failure === 'starved') return new PdfBusyError(retryAfter(lane));
    const seconds = Math.round(cpuLimitOf(kind) / 100) / 10;
    // A verification's whole answer is about the file: one too costly to read is the file's doing.
    if (kind === 'verify' && failure !== 'crash') return new PdfRejectedError('pdf_too_complex', failure === 'time' ? TOO_COMPLEX(seconds) : TOO_BIG);
    if (kind === 'inspect' || kind === 'verify') return new PdfRejectedError('pdf_invalid', failure === 'time' ? TOO_SLOW : failure === 'memory' ? TOO_BIG : UNREADABLE);
    const doing = kind === 'audit' ? 'Drawing the audit trail of' : kind === 'image' ? 'Drawing a page of' : kind === 'pages' ? 'Measuring the pages of' : kind === 'seal' ? 'Sealing' : kind === 'preview' ? 'Outlining the fields of' : kind === 'generate' ? 'Generating' : 'Filling';
    if (failure === 'time') return new PdfFillFailedError('time', `${doing} this PDF took more than the ${seconds} s of processing Formsign allows for one document.`);
    if (failure === 'memory') return new PdfFillFailedError('memory', `${doing} this PDF needed more than the ${limits.maxOldGenerationSizeMb} MiB of memory Formsign allows for one document.`);
    return new PdfFillFailedError('error', `The PDF worker stopped while ${doing.toLowerCase()} this PDF.`);
  }

  function settle(p: Pending, outcome: () => void): void {
    if (p.onAbort) p.signal?.removeEventListener('abort', p.onAbort);
    clearTimeout(p.deadline);
    outcome();
  }

  function retryAfter(lane: Lane): number {
    const waves = Math.ceil((lane.queue.size + 1) / lane.workers);
    return Math.min(60, Math.max(1, Math.ceil((waves * lane.averageJobMs) / 1000)));
  }

  function cancel(p: Pending): void {
    if (p.lane.queue.remove(p.owner, p)) return settle(p, () => p.reject(new PdfJobCancelledError()));
    const slot = slots.find((s) => s.job === p);
    if (slot) stop(slot, 'cancelled');
  }

  /** The job's bound is up: out of the queue, or stopped if it runs, and answered busy either way. */
  function expire(p: Pending): void {
    if (p.lane.queue.remove(p.owner, p)) return settle(p, () => p.reject(new PdfBusyError(retryAfter(p.lane))));
    const slot = slots.find((s) => s.job === p);
    if (slot) stop(slot, 'starved');
  }

  return {
    limits,
    load(name: JobLane): PoolLoad {
      const lane = lanes[name];
      return { running: slots.filter((s) => s.lane === lane && s.job).length, queued: lane.queue.size };
    },
    run<K extends JobKind>(job: Extract<PdfJob, { kind: K }>, opts: JobOptions = {}): Promise<JobResults[K]> {
      if (closed) return Promise.reject(new Error('The PDF pool was closed'));
      const { signal } = opts;
      if (signal?.aborted) return Promise.reject(new PdfJobCancelledError());
      const owner = opts.owner ?? '';
      const lane = lanes[opts.lane ?? 'account'];
      if (lane.queue.size >= lane.maxQueued || lane.queue.sizeOf(owner) + runningOf(lane, owner) >= lane.perOwnerAdmitted) {
        return Promise.reject(new PdfBusyError(retryAfter(lane)));
      }
      return new Promise<JobResults[K]>((resolve, reject) => {
        const p: Pending = { id: nextId++, job, owner, lane, resolve: resolve as (v: never) => void, reject, signal };
        if (signal) {
          p.onAbort = () => cancel(p);
          signal.addEventListener('abort', p.onAbort, { once: true });
        }
        p.deadline = setTimeout(() => expire(p), limits.deadlineMs);
        p.deadline.unref();
        lane.queue.push(owner, p);
        pump();
      });
    },
    async close() {
      closed = true;
      // Running jobs see their worker exit and reject as closed; waiting ones are told after, so a
      // caller awaiting close() can still attach its handlers.
      await Promise.all([...slots].map((s) => s.worker.terminate()));
      for (const lane of Object.values(lanes)) for (const p of lane.queue.drain()) settle(p, () => p.reject(new Error('The PDF pool was closed')));
    },
  };
}

/** Lowers one thread's scheduling priority (Linux applies setpriority to a thread id alone). */
function lowerPriority(tid: number): void {
  try {
    setPriority(tid, LOWEST_PRIORITY);
  } catch {
    // Not permitted or not supported here: the lane keeps its own threads and queue all the same.
  }
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
