// A pool worker thread: runs one job per message. Anything that goes wrong is answered as a failure;
// running out of time or memory ends the whole thread, which the pool handles.
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { auditTrailPdf } from '../audit/index.js';
import { PdfRejectedError } from '../field.js';
import { SigningCertificateRefusedError, TimestampUnavailableError } from '../work.js';
import { createPdfRenderer } from '../fill/index.js';
import { layoutForm } from '../generate/index.js';
import { detectTemplate } from '../inspect/index.js';
import { makeSampleTemplatePdf } from '../sample/index.js';
import { sealPdfWithEvidence } from '../seal/index.js';
import { installDecodeGuard } from '../shared/decode-guard.js';
import { pageSizesOf } from '../shared/page-sizes.js';
import { pageImage } from '../raster/index.js';
import { verifyPdf } from '../verify/index.js';
import type { JobReply, JobRequest, PdfJob, PoolWorkerData, WorkerReady } from './protocol.js';
import { currentThreadId } from './thread-cpu.js';
import { trialFill, trialValues } from './trial-fill.js';

const port = parentPort;
if (!port) throw new Error('worker-job must run in a worker thread');
const data = workerData as PoolWorkerData;

// pdf-lib narrates every recoverable problem of a hostile or broken upload on the console; the
// outcome reaches the caller as a result instead, so the server log stays readable.
console.log = () => undefined;
console.warn = () => undefined;

installDecodeGuard(data.maxDecodedStreamBytes);
const tid = currentThreadId();
const renderer = createPdfRenderer();

async function run(id: number, job: PdfJob): Promise<{ reply: JobReply; transfer: ArrayBuffer[] }> {
  if (job.kind === 'fill') {
    const pdf = await renderer.render(job.pdf, job.fields, job.values);
    return { reply: { id, ok: true, kind: 'fill', pdf }, transfer: transferable(pdf) };
  }
  if (job.kind === 'preview') {
    const pdf = await renderer.preview(job.pdf, job.fields);
    return { reply: { id, ok: true, kind: 'preview', pdf }, transfer: transferable(pdf) };
  }
  if (job.kind === 'generate') {
    const out = await layoutForm(job.request);
    return { reply: { id, ok: true, kind: 'generate', pdf: out.pdf, fields: out.fields, pageCount: out.pageCount }, transfer: transferable(out.pdf) };
  }
  if (job.kind === 'seal') {
    const { pdf, level, tsaFailures } = await sealPdfWithEvidence(job.request, job.certificate, job.tsa);
    return { reply: { id, ok: true, kind: 'seal', pdf, level, tsaFailures: [...tsaFailures] }, transfer: transferable(pdf) };
  }
  if (job.kind === 'audit') {
    const pdf = await auditTrailPdf(job.audit, job.facts);
    return { reply: { id, ok: true, kind: 'audit', pdf }, transfer: transferable(pdf) };
  }
  if (job.kind === 'pages') return { reply: { id, ok: true, kind: 'pages', pageSizes: await pageSizesOf(job.pdf) }, transfer: [] };
  if (job.kind === 'image') {
    const pdf = await pageImage(job.pdf, job.page, job.scale);
    return { reply: { id, ok: true, kind: 'image', pdf }, transfer: transferable(pdf) };
  }
  if (job.kind === 'verify') {
    const bytes = job.source instanceof Uint8Array ? job.source : await readUpload(job.source.path);
    return { reply: { id, ok: true, kind: 'verify', verification: await verifyPdf(bytes, job.service ?? undefined) }, transfer: [] };
  }
  const bytes = job.source instanceof Uint8Array ? job.source : await readUpload(job.source.path);
  const t = await detectTemplate(bytes);
  // A template that imports can always be filled: the trial fill must fit well inside a fill's limit.
  await trialFill(renderer, t, { tid, cpuMs: data.trialFillCpuMs });
  return { reply: { id, ok: true, kind: 'inspect', pageCount: t.pageCount, pageSizes: t.pageSizes, fields: t.fields, warnings: t.warnings, pdf: t.pdf, roles: t.roles }, transfer: transferable(t.pdf) };
}

async function readUpload(path: string): Promise<Uint8Array> {
  const buf = await readFile(path);
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

const transferable = (bytes: Uint8Array): ArrayBuffer[] => (bytes.buffer instanceof ArrayBuffer ? [bytes.buffer] : []);

async function answer({ id, job }: JobRequest): Promise<void> {
  let outcome: { reply: JobReply; transfer: ArrayBuffer[] };
  try {
    outcome = await run(id, job);
  } catch (err) {
    const reply: JobReply = err instanceof PdfRejectedError
      ? { id, ok: false, rejection: err.code, message: err.message }
      : err instanceof TimestampUnavailableError ? { id, ok: false, message: err.message, tsaFailures: [...err.failures] }
      : err instanceof SigningCertificateRefusedError ? { id, ok: false, message: err.message, certificate: err.reason }
      : { id, ok: false, message: err instanceof Error ? err.message : String(err) };
    outcome = { reply, transfer: [] };
  }
  port?.postMessage(outcome.reply, outcome.transfer);
}

// Warm up before the first job: a cold thread compiles pdf-lib's hot paths while it works, and a job
// measured against a CPU budget should not pay for that (the same file gets the same verdict on a
// fresh worker as on a warm one).
const sample = await makeSampleTemplatePdf();
await renderer.render((await detectTemplate(sample.pdf)).pdf, sample.fields, trialValues(sample.fields));

port.on('message', (msg: JobRequest) => void answer(msg));
port.postMessage({ ready: true, tid } satisfies WorkerReady);
