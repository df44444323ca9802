// /healthz while the PDF pool is busy: four uploads and four first renders of a 13-page form (qpdf
// merge of two fixtures) run at once; a prober asks /healthz every 10 ms meanwhile. The floor is the
// same prober against the idle server. Target: p99 under load < 50 ms.
// Run: node --import tsx bench/pdf-load.bench.ts   (the server is a child process on all cores)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchRow } from './load.js';
import { percentile } from './stats.js';

interface Info { port: number; key: string; forms: string[]; pages: number; fields: number; workers: number; bigPath: string }

const ROOT = fileURLToPath(new URL('..', import.meta.url));

async function start(): Promise<{ info: Info; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/servers/pdf-server.ts'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise<Info>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const line = buf.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as Info);
    });
    child.on('exit', (code) => reject(new Error(`pdf-server exited with ${code}`)));
  });
  return { info, stop: () => new Promise((r) => { child.once('exit', () => r()); child.kill('SIGTERM'); }) };
}


/** Probes /healthz every 10 ms until `until` settles; returns each answer's latency. */
async function probe(base: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => { done = true; });
  const latencies: number[] = [];
  while (!done) {
    const t = performance.now();
    const res = await fetch(`${base}/healthz`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`/healthz answered ${res.status}`);
    latencies.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 10));
  }
  return latencies;
}

export async function run(): Promise<BenchRow[]> {
  const server = await start();
  const { port, key, forms, pages, fields, bigPath } = server.info;
  const base = `http://127.0.0.1:${port}`;
  const auth = { authorization: `Bearer ${key}` };
  const big = readFileSync(bigPath);
  try {
    await (await fetch(`${base}/healthz`)).arrayBuffer();
    const idle = await probe(base, new Promise((r) => setTimeout(r, 3_000)));
    const upload = async (): Promise<void> => {
      const body = new FormData();
      body.append('file', new Blob([big], { type: 'application/pdf' }), 'big.pdf');
      const res = await fetch(`${base}/api/v1/templates`, { method: 'POST', headers: auth, body });
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    };
    const render = async (id: string): Promise<void> => {
      const res = await fetch(`${base}/api/v1/forms/${id}/pdf`, { headers: auth });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`render answered ${res.status}`);
    };
    const started = performance.now();
    const work = Promise.all([...Array.from({ length: 4 }, upload), ...forms.map(render)]);
    const busy = await probe(base, work);
    await work;
    const seconds = (performance.now() - started) / 1000;
    const ours = percentile(busy, 99);
    return [{
      name: `GET /healthz p99 during 4 uploads + 4 first renders of a ${pages}-page, ${fields}-field form (${busy.length} probes over ${seconds.toFixed(1)} s, worst ${Math.max(...busy).toFixed(1)} ms; floor: idle p99)`,
      ours,
      floor: percentile(idle, 99),
      ratio: ours / Math.max(percentile(idle, 99), 0.001),
      target: 'ours < 50 ms',
      unit: 'ms',
    }];
  } finally {
    await server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await run()) console.log(`${r.name}: ours ${r.ours.toFixed(1)} ${r.unit}, floor ${r.floor.toFixed(1)} ${r.unit} (target ${r.target})`);
}
