// Sealing cost against the floor: raw @cantoo/pdf-lib load + fill the same fields + save, in the
// same process. Run: node --import tsx bench/seal.bench.ts   (warm-up, then interleaved runs)
//
// "seal job" is what the form.seal job runs since issue 36: sealPdf given the template and the values,
// which fills, flattens, draws a signature image, an extra signer's page and the audit trail (two
// recipients) and PAdES-signs in one parse. "render + seal" is the pipeline it replaced (the fill
// stage's rendering, then sealPdf on the filled document: two parses), run beside it as the before;
// "seal" is that second step alone. Forms: osha_form_301 (1 page, 31 fields) and a 10-page qpdf merge
// of cdc_icar (6) + lima (2) + osha (1) + openoffice (1), as bench/render.bench.ts.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deflateSync } from 'node:zlib';
import {
  createPdfInspector, loadSigningCertificate, sealPdf,
  type FieldDef, type FieldValue, type SealRequest,
} from '../src/pdf/index.js';
import { createPdfRenderer } from '../src/pdf/fill/index.js';
import { floorFill } from './render.bench.js';
import { median } from './stats.js';

export { floorFill };

export interface BenchResult { name: string; ours: number; floor: number; ratio: number; target: string }

export const FIXTURES = fileURLToPath(new URL('../test/fixtures/pdfs/', import.meta.url));
export const ONE_PAGE = 'osha_form_301_injury_report.pdf';
const TEN_PAGES = ['cdc_icar_ltc_assessment.pdf', 'lima_oxygen_prescription_fr.pdf', ONE_PAGE, 'openoffice_form_example.pdf'];
const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

function withTemp<T>(fn: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'formsign-seal-bench-'));
  try { return fn(dir); } finally { rmSync(dir, { recursive: true, force: true }); }
}

export const mergedTenPages = (): Uint8Array => withTemp((dir) => {
  const out = join(dir, 'ten.pdf');
  const run = spawnSync('qpdf', ['--empty', '--pages', ...TEN_PAGES.map((f) => join(FIXTURES, f)), '--', out], { encoding: 'utf8' });
  if (run.status !== 0 && run.status !== 3) throw new Error(`qpdf could not merge the 10-page form: ${run.stderr}`);
  return new Uint8Array(readFileSync(out));
});

function valuesFor(fields: readonly FieldDef[]): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = {};
  fields.forEach((f, i) => {
    if (f.type === 'checkbox') values[f.name] = true;
    else if (f.type === 'radio' || f.type === 'select') values[f.name] = f.options?.[0] ?? null;
    else if (f.type !== 'signature') values[f.name] = `Value ${i}`.slice(0, f.max_length ?? Infinity);
  });
  return values;
}

/** A 300×100 RGBA PNG with a stroke, the size a signature pad sends. */
export function signaturePng(): Uint8Array {
  const [w, h] = [300, 100];
  const raw = Buffer.alloc((w * 4 + 1) * h);
  for (let x = 0; x < w; x++) raw.set([20, 40, 160, 255], Math.round(h / 2 + 30 * Math.sin(x / 15)) * (w * 4 + 1) + 1 + x * 4);
  const table = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
  const crc = (b: Buffer) => { let c = 0xffffffff; for (const v of b) c = table[(c ^ v) & 255]! ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const head = Buffer.alloc(4); head.writeUInt32BE(data.length);
    const tail = Buffer.alloc(4); tail.writeUInt32BE(crc(body));
    return Buffer.concat([head, body, tail]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0); ihdr.writeUInt32BE(h, 4); ihdr[8] = 8; ihdr[9] = 6;
  return new Uint8Array(Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]));
}

const round = (n: number): number => Math.round(n * 100) / 100;

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function compare(label: string, source: Uint8Array, iterations: number): Promise<BenchResult[]> {
  const inspector = createPdfInspector({ timeoutMs: 60_000, maxOldGenerationSizeMb: 512 });
  const template = await inspector.inspect(source).finally(() => inspector.close());
  const values = valuesFor(template.fields);
  const renderer = createPdfRenderer();
  const cert = withTemp((dataDir) => loadSigningCertificate({ dataDir, serviceName: 'Formsign Bench' }));
  const png = signaturePng();
  const filled = await renderer.render(template.pdf, template.fields, values);
  const recipient = (i: number) => ({
    name: `Signer ${i}`, email: `signer${i}@example.com`, phone: null, channel: 'email' as const, signer: i,
    sentAt: '2026-11-20T09:00:00Z', viewedAt: '2026-11-20T09:05:00Z', signedAt: '2026-11-20T09:09:00Z',
    viewedIp: '198.51.100.7', viewedUserAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0', signedIp: '198.51.100.7', signedUserAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0',
  });
  // With `fill`, the seal fills the template itself (the seal job: one parse), and no filled file exists to hash.
  const request = (document: Uint8Array, fill?: Record<string, FieldValue>): SealRequest => ({
    document, values: fill, fields: template.fields, marks: [], dates: {},
    extraSigners: [{ name: 'Signer 2', signer: 2, png, signedAt: '2026-11-20T09:09:00Z' }],
    audit: { formId: 'frm_bench', formName: label, documentId: 'frm_bench-signed', templateSha256: sha256(source), filledSha256: fill ? null : sha256(document), recipients: [recipient(1), recipient(2)] },
    signingTime: new Date('2026-11-20T09:10:00Z'),
  });
  const seal = () => sealPdf(request(filled), cert);
  const pipeline = async () => sealPdf(request(await renderer.render(template.pdf, template.fields, values)), cert);
  const oneJob = () => sealPdf(request(template.pdf, values), cert);
  const floor = () => floorFill(template.pdf, values);
  const fns = { seal, pipeline, oneJob, floor };
  for (let i = 0; i < 3; i++) for (const fn of Object.values(fns)) await fn();
  const ms = { seal: [] as number[], pipeline: [] as number[], oneJob: [] as number[], floor: [] as number[] };
  for (let i = 0; i < iterations; i++) {
    // Rotate the order so none always runs right after a collection.
    const order = (['seal', 'pipeline', 'oneJob', 'floor'] as const).map((_, k, a) => a[(i + k) % 4]!);
    for (const which of order) ms[which].push(await time(fns[which]));
  }
  const [s, p, o, f] = [median(ms.seal), median(ms.pipeline), median(ms.oneJob), median(ms.floor)];
  return [
    { name: `seal job (fill + seal, one parse) ${label}`, ours: round(o), floor: round(f), ratio: round(o / f), target: '<= 1.3' },
    { name: `seal ${label}`, ours: round(s), floor: round(f), ratio: round(s / f), target: '<= 1.5' },
    { name: `render + seal ${label}`, ours: round(p), floor: round(f), ratio: round(p / f), target: '(the two-parse pipeline before issue 36; reported)' },
  ];
}

export async function run(): Promise<BenchResult[]> {
  return [
    ...await compare('1-page form (osha_form_301, 31 fields)', new Uint8Array(readFileSync(join(FIXTURES, ONE_PAGE))), 20),
    ...await compare('10-page form (qpdf merge of 4 fixtures, 242 fields)', mergedTenPages(), 10),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const r of await run()) {
    console.log(`${r.name}: ours ${r.ours} ms/op, floor ${r.floor} ms/op, ratio ${r.ratio} (target ${r.target})`);
  }
}
