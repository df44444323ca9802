// Parses uploads in a worker thread with a heap cap and a wall-clock limit, so a decompression
// bomb or a pathological file costs a few seconds of one thread and never the server.
import { Worker } from 'node:worker_threads';
import type { DetectedTemplate } from './detect-template.js';
import { PdfRejectedError } from './field.js';
import type { InspectReply, InspectRequest, InspectWorkerData, WorkerReady } from './inspect-protocol.js';

export type { DetectedTemplate } from './detect-template.js';

export interface PdfInspectorOptions {
  /** Wall-clock limit for one inspection; the worker is killed when it is exceeded. */
  timeoutMs: number;
  /** V8 old-generation heap limit of the worker thread. */
  maxOldGenerationSizeMb: number;
}

export interface PdfInspector {
  inspect(bytes: Uint8Array): Promise<DetectedTemplate>;
  close(): Promise<void>;
}

const WORKER_URL = new URL('./inspect-worker.mjs', import.meta.url);
// Loading tsx and pdf-lib in a fresh thread takes well under a second; this only catches a
// worker that cannot start at all (for example a broken install).
const STARTUP_TIMEOUT_MS = 30_000;
const TOO_BIG = 'This PDF needs more memory to read than Formsign allows. It may be malformed; please upload a simpler copy.';
const TOO_SLOW = 'This PDF takes too long to read. It may be malformed; please upload a simpler copy.';

export function createPdfInspector(options: PdfInspectorOptions): PdfInspector {
  const { timeoutMs, maxOldGenerationSizeMb } = options;
  // Decoded streams live outside the capped heap; bound each one by the same budget.
  const data: InspectWorkerData = { maxDecodedStreamBytes: maxOldGenerationSizeMb * 1024 * 1024 };
  let current: Promise<Worker> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let nextId = 1;
  let closed = false;

  function spawn(): Promise<Worker> {
    const worker = new Worker(WORKER_URL, { workerData: data, resourceLimits: { maxOldGenerationSizeMb } });
    return new Promise<Worker>((resolve, reject) => {
      const detach = (): void => {
        clearTimeout(timer);
        worker.off('message', onReady).off('error', onError).off('exit', onExit);
      };
      const fail = (err: Error): void => { detach(); void worker.terminate(); reject(err); };
      const onReady = (msg: WorkerReady): void => {
        if (!msg.ready) return fail(new Error('The PDF inspector worker sent an unexpected first message'));
        detach();
        // An idle inspector must not keep the process alive; run() refs it while a job is out.
        worker.unref();
        resolve(worker);
      };
      const onError = (err: Error): void => fail(new Error(`The PDF inspector worker failed to start: ${err.message}`));
      const onExit = (code: number): void => fail(new Error(`The PDF inspector worker exited during startup (code ${code})`));
      const timer = setTimeout(() => fail(new Error('The PDF inspector worker did not start')), STARTUP_TIMEOUT_MS);
      worker.on('message', onReady).on('error', onError).on('exit', onExit);
    });
  }

  function discard(worker: Worker): void {
    void worker.terminate();
    current = undefined;
  }

  async function run(bytes: Uint8Array): Promise<DetectedTemplate> {
    if (closed) throw new Error('The PDF inspector is closed');
    current ??= spawn().catch((err: unknown) => { current = undefined; throw err; });
    const worker = await current;
    const id = nextId++;
    // The worker gets its own copy: the caller keeps its bytes, and the copy is transferred, not cloned.
    const copy = new Uint8Array(bytes);
    return new Promise<DetectedTemplate>((resolve, reject) => {
      const settle = (outcome: () => void): void => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        worker.unref();
        outcome();
      };
      const timer = setTimeout(() => settle(() => { discard(worker); reject(new PdfRejectedError('pdf_invalid', TOO_SLOW)); }), timeoutMs);
      const onMessage = (reply: InspectReply): void => {
        if (reply.id !== id) return;
        settle(() => {
          if (!reply.ok) return reject(new PdfRejectedError(reply.code, reply.message));
          const pdf = reply.decryptedPdf ?? bytes;
          resolve({ pageCount: reply.pageCount, fields: reply.fields, warnings: reply.warnings, pdf });
        });
      };
      const onError = (err: Error & { code?: string }): void => settle(() => {
        discard(worker);
        reject(new PdfRejectedError('pdf_invalid', err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? TOO_BIG : 'This PDF could not be read.'));
      });
      const onExit = (): void => settle(() => {
        discard(worker);
        reject(closed ? new Error('The PDF inspector was closed') : new PdfRejectedError('pdf_invalid', TOO_BIG));
      });
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.ref();
      worker.postMessage({ id, bytes: copy } satisfies InspectRequest, [copy.buffer]);
    });
  }

  return {
    inspect(bytes) {
      // One job at a time, so each timeout measures that job alone.
      const job = queue.then(() => run(bytes));
      queue = job.catch(() => undefined);
      return job;
    },
    async close() {
      closed = true;
      const worker = await current?.catch(() => undefined);
      current = undefined;
      // A job still running sees the exit and rejects; its listeners must stay for that.
      if (worker) await worker.terminate();
    },
  };
}
