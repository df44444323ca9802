import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import { createHarness, errorOf, type Harness } from '../harness.js';
import { multipart } from '../shared/multipart.js';

// Issue 26, defect 3: "a 2 KB PDF bomb costs ~0.5 GB of memory per upload (eight at once: 57 s,
// 290 → 818 MB)". The bomb: one page whose content stream is deflated twice ([/FlateDecode
// /FlateDecode]), 2 KB on disk, 512 MiB of zeros once inflated. Eight uploaded at once must each be
// refused (400, never a 5xx) within 5 s, and the process (PDF worker threads included: they live in
// it) must stay under 200 MB above its idle RSS.

const MIB = 1024 * 1024;

/** Deflates `mib` MiB of zeros a chunk at a time (never holding them), then deflates the result again. */
async function doublyDeflatedZeros(mib: number): Promise<Buffer> {
  const once = await new Promise<Buffer>((resolve, reject) => {
    const out: Buffer[] = [];
    const z = zlib.createDeflate({ level: 9 });
    z.on('data', (c: Buffer) => out.push(c)).on('end', () => resolve(Buffer.concat(out))).on('error', reject);
    const chunk = Buffer.alloc(MIB);
    let left = mib;
    const pump = (): void => {
      while (left > 0) {
        left--;
        if (!z.write(chunk)) return void z.once('drain', pump);
      }
      z.end();
    };
    pump();
  });
  return zlib.deflateSync(once, { level: 9 });
}

async function bombPdf(): Promise<Buffer> {
  const stream = await doublyDeflatedZeros(512);
  const ascii = (s: string) => Buffer.from(s, 'latin1');
  return Buffer.concat([
    ascii('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [5 0 R] >> >>\nendobj\n'),
    ascii('2 0 obj\n<< /Type /Pages /Kids [4 0 R] /Count 1 >>\nendobj\n'),
    ascii('4 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R /Annots [5 0 R] >>\nendobj\n'),
    ascii('5 0 obj\n<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /Rect [100 600 300 620] /P 4 0 R >>\nendobj\n'),
    ascii(`3 0 obj\n<< /Filter [/FlateDecode /FlateDecode] /Length ${stream.length} >>\nstream\n`),
    stream,
    ascii('\nendstream\nendobj\n6 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter [/FlateDecode /FlateDecode] /Length '),
    ascii(`${stream.length} >>\nstream\n`),
    stream,
    ascii('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R /Size 7 >>\n%%EOF\n'),
  ]);
}

describe('eight 2 KB PDF bombs at once', () => {
  let h: Harness;
  let bomb: Buffer;
  before(async () => {
    h = await createHarness('sqlite');
    bomb = await bombPdf();
  });
  after(() => h.close());

  it('are each refused within 5 s, with the process under 200 MB above idle', async () => {
    assert.ok(bomb.length < 4096, `the bomb is small on disk: ${bomb.length} bytes`);
    const upload = () => {
      const m = multipart([{ name: 'file', value: bomb, filename: 'bomb.pdf' }]);
      return h.request({ method: 'POST', url: '/api/v1/templates', as: h.actors.aTest, payload: m.payload, headers: m.headers });
    };
    // Warm: the pool's thread and the inspector's code loaded, as on a server that has served uploads.
    const warm = await upload();
    assert.equal(warm.status, 400, warm.body);
    global.gc?.();
    await new Promise((r) => setTimeout(r, 500));
    const idle = process.memoryUsage.rss();
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 10);
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const res = await upload();
        return { res, ms: performance.now() - started };
      }),
    );
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage.rss());
    const aboveMb = (peak - idle) / MIB;
    const times = results.map((r) => Math.round(r.ms));
    console.log(`eight bombs: refused after ${times.join(', ')} ms; RSS idle ${Math.round(idle / MIB)} MB, peak ${Math.round(peak / MIB)} MB (+${Math.round(aboveMb)} MB)`);
    for (const { res } of results) {
      assert.equal(res.status, 400, res.body.slice(0, 300));
      assert.equal(errorOf(res).code, 'pdf_invalid');
    }
    for (const t of times) assert.ok(t < 5000, `each refused within 5 s: ${times.join(', ')} ms`);
    assert.ok(aboveMb < 200, `under 200 MB above idle: +${Math.round(aboveMb)} MB`);
    // Nothing was stored.
    assert.deepEqual((await h.request({ url: '/api/v1/templates', as: h.actors.aTest })).json<{ data: unknown[] }>().data, []);
  });
});
