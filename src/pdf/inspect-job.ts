// The inspector's worker thread: parses one PDF per message. Anything that goes wrong is answered
// as a rejection; running out of time or memory ends the whole thread, which the parent handles.
import { parentPort, workerData } from 'node:worker_threads';
import { installDecodeGuard } from './decode-guard.js';
import { detectTemplate } from './detect-template.js';
import { PdfRejectedError } from './field.js';
import type { InspectReply, InspectRequest, InspectWorkerData, WorkerReady } from './inspect-protocol.js';

const port = parentPort;
if (!port) throw new Error('inspect-job must run in a worker thread');

// pdf-lib narrates every recoverable problem of a hostile or broken upload on the console; the
// outcome reaches the caller as a result instead, so the server log stays readable.
console.log = () => undefined;
console.warn = () => undefined;

installDecodeGuard((workerData as InspectWorkerData).maxDecodedStreamBytes);

async function answer({ id, bytes }: InspectRequest): Promise<void> {
  let reply: InspectReply;
  const transfer: ArrayBuffer[] = [];
  try {
    const t = await detectTemplate(bytes);
    reply = { id, ok: true, pageCount: t.pageCount, fields: t.fields, warnings: t.warnings };
    if (t.pdf !== bytes) {
      reply.decryptedPdf = t.pdf;
      if (t.pdf.buffer instanceof ArrayBuffer) transfer.push(t.pdf.buffer);
    }
  } catch (err) {
    reply = err instanceof PdfRejectedError
      ? { id, ok: false, code: err.code, message: err.message }
      : { id, ok: false, code: 'pdf_invalid', message: 'This PDF could not be read.' };
  }
  port?.postMessage(reply, transfer);
}

port.on('message', (msg: InspectRequest) => void answer(msg));
port.postMessage({ ready: true } satisfies WorkerReady);
