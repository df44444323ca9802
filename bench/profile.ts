// A CPU profile of the server as `npm start` runs it, under autocannon, for one request:
//   PROFILE=sample|twenty|forms|send node --import tsx bench/profile.ts
// Writes the .cpuprofile to PROFILE_DIR (default /tmp/formsign-prof) and prints self time by function
// and by package, so the per-request cost can be split without opening DevTools.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSampleTemplate, importTemplate } from '../src/domain/templates/import-template.js';
import { createForm } from '../src/domain/forms/create-form.js';
import { serveFormsign } from './formsign-serve.js';
import { load, SERVER_CPU } from './load.js';

const WHAT = process.env['PROFILE'] ?? 'sample';
const DIR = process.env['PROFILE_DIR'] ?? '/tmp/formsign-prof';
const FIXTURE = fileURLToPath(new URL('../test/fixtures/pdfs/openoffice_form_example.pdf', import.meta.url));

fs.rmSync(DIR, { recursive: true, force: true });
fs.mkdirSync(DIR, { recursive: true });
const served = await serveFormsign({
  prefix: 'bench_profile',
  cpu: SERVER_CPU,
  env: { BENCH_NODE_ARGS: process.env['PROFILE_OFF'] ? '' : `--cpu-prof --cpu-prof-dir=${DIR}`, ...(process.env['PROFILE_ENV'] ? Object.fromEntries(process.env['PROFILE_ENV'].split(',').map((kv) => kv.split('=') as [string, string])) : {}) },
  seed: async (deps, p) => {
    const pdf = new Uint8Array(fs.readFileSync(FIXTURE));
    if (WHAT === 'twenty') for (let i = 0; i < 20; i++) await importTemplate(deps.domain, p, { pdf, fallbackName: 'openoffice_form_example.pdf' });
    else if (WHAT === 'sample') await createSampleTemplate(deps.domain, p);
    const fields = Array.from({ length: 20 }, (_, i) => ({ name: `field_${i}`, type: 'text' as const, required: false, signer: 1, page: 1, x: 50, y: 40 + i * 30, width: 300, height: 20 }));
    const wide = WHAT === 'forms' || WHAT === 'send' ? await importTemplate(deps.domain, p, { pdf, name: 'twenty fields', fields }) : undefined;
    const forms: string[] = [];
    if (WHAT === 'send') for (let i = 0; i < 400; i++) forms.push((JSON.parse((await createForm(deps.domain, p, { template_id: wide!.id })).form.json) as { id: string }).id);
    return { wide: wide?.id, forms };
  },
});
const auth = { authorization: `Bearer ${served.key}` };
const duration = Number(process.env['BENCH_DURATION'] ?? 10);
let r;
const cpu0 = served.cpuMs();
if (WHAT === 'forms') {
  const prefill = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`field_${i}`, `value number ${i} Łódź`]));
  r = load({ url: `${served.base}/api/v1/forms`, method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ template_id: served.seeded.wide, prefill }), connections: 50, durationSec: duration });
} else if (WHAT === 'send') {
  throw new Error('send: use bench/send.bench.ts with NODE_OPTIONS');
} else {
  r = load({ url: `${served.base}/api/v1/templates?limit=20`, headers: auth, connections: 50, durationSec: duration });
}
const cpu = served.cpuMs() - cpu0;
console.log(JSON.stringify({ ...r, cpuUsPerRequest: Math.round((cpu * 1000) / (r.requestsPerSec * duration)) }));
await served.stop();
if (process.env['PROFILE_OFF']) process.exit(0);
const file = fs.readdirSync(DIR).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error('no profile written');
summarise(path.join(DIR, file));

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
function summarise(file: string): void {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = [...self.entries()].filter(([id]) => ['(idle)', '(program)', '(garbage collector)'].includes(byId.get(id)!.callFrame.functionName)).map(([id, t]) => [byId.get(id)!.callFrame.functionName, t] as const);
  const fn = new Map<string, number>();
  const pkg = new Map<string, number>();
  for (const [id, t] of self) {
    const cf = byId.get(id)!.callFrame;
    const url = cf.url.replace(/^file:\/\//, '');
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    const where = m ? m[1]! : url.includes('/src/') ? 'src/' + url.split('/src/')[1] : url.startsWith('node:') ? url : cf.functionName.startsWith('(') ? cf.functionName : url || '(native)';
    pkg.set(where, (pkg.get(where) ?? 0) + t);
    const key = `${cf.functionName || '(anon)'} ${url.split('/').slice(-2).join('/')}:${cf.lineNumber}`;
    fn.set(key, (fn.get(key) ?? 0) + t);
  }
  const pct = (t: number) => ((100 * t) / total).toFixed(1).padStart(5) + '%';
  console.log(`total ${(total / 1e6).toFixed(1)} s; ${idle.map(([n, t]) => `${n} ${pct(t)}`).join(', ')}`);
  console.log('--- by file/package');
  for (const [k, t] of [...pkg].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(pct(t), k);
  console.log('--- by function');
  for (const [k, t] of [...fn].sort((a, b) => b[1] - a[1]).slice(0, 50)) console.log(pct(t), k);
  // Inclusive time: each sample counted once for every distinct function on its stack.
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const incl = new Map<string, number>();
  for (const [id, t] of self) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const cf = byId.get(cur)!.callFrame;
      const url = cf.url.replace(/^file:\/\//, '');
      const key = `${cf.functionName || '(anon)'} ${url.split('/').slice(-2).join('/')}:${cf.lineNumber}`;
      if (seen.has(key)) continue;
      seen.add(key);
      incl.set(key, (incl.get(key) ?? 0) + t);
    }
  }
  console.log('--- inclusive');
  for (const [k, t] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 70)) console.log(pct(t), k);
}
