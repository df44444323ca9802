// `npm run bench`: every benchmark in one run, each reported against its floor (or its target when
// the figure has no floor); the cluster's (issue 27) only when named, as it takes minutes. BENCH_ONLY=send,seal-latency runs a subset (names below); BENCH_DIALECT=
// postgres moves the ones that take a dialect to PostgreSQL. The machine should be otherwise idle.

interface Row { name: string; ours: number; floor?: number; ratio?: number; target: string; unit?: string }
type Latency = { p50: number; p99: number; samples: number };

const latencyRows = (what: string, l: Latency, target: string): Row[] => [
  { name: `${what} (${l.samples} samples) p50`, ours: l.p50, target: '(reported)', unit: 'ms' },
  { name: `${what} (${l.samples} samples) p99`, ours: l.p99, target, unit: 'ms' },
];

const BENCHES: Record<string, () => Promise<Row[]>> = {
  http: async () => (await import('./http.bench.js')).run(),
  start: async () => (await import('./start.bench.js')).run(),
  render: async () => (await import('./render.bench.js')).run(),
  'pdf-load': async () => (await import('./pdf-load.bench.js')).run(),
  seal: async () => (await import('./seal.bench.js')).run(),
  'seal-latency': async () => (await import('./seal-latency.bench.js')).run(),
  // Issue 25: the same with TSA_URLS set (B-LTA: two RFC 3161 requests per seal) against a loopback TSA.
  'seal-latency-tsa': async () => (await import('./seal-tsa-latency.bench.js')).run(),
  // Issue 35: the same idle and with ten hostile PDFs in flight to the public /verify page.
  'seal-verify-load': async () => (await import('./seal-verify-load.bench.js')).run(),
  send: async () => (await import('./send.bench.js')).run(),
  worker: async () => {
    const { rows, latency } = await (await import('./worker.bench.js')).run();
    return [...rows, ...latencyRows('e-mail latency, committed send → SMTP DATA end, one at a time', latency, '(reported)')];
  },
  generate: async () => (await (await import('./generate.bench.js')).benchGenerate()).map((r) => ({
    name: `form from a description, built-in generator${r.pages > 0 ? ' + PDF layout' : ''}, ${r.name} (${r.fields} fields, ${r.pages} page(s)) ${r.metric ?? 'p50'}`,
    ours: r.metric === 'p95' ? r.p95 : r.p50, target: `< ${r.target} ms`, unit: 'ms',
  })),
  'signing-tti': async () => (await import('./signing-tti.bench.js')).run(),
  // The 1040 on a throttled phone (issue 43 item 4): first page usable and CLS.
  'signing-phone': async () => (await import('./signing-phone.bench.js')).run(),
  webhooks: async () => {
    const { rows, latency } = await (await import('./webhooks.bench.js')).run();
    return [...rows, ...latencyRows('webhook latency, committed event → request at the receiver, 100 events/s', latency, '(reported)')];
  },
  // Issue 27: the product as a cluster (1 + 1 and 2 + 2 processes on PostgreSQL, Redis, S3).
  cluster: async () => (await import('./cluster.bench.js')).run(),
};

// `npm run bench -- cluster seal` names benchmarks as BENCH_ONLY=cluster,seal does.
const only = [...(process.env['BENCH_ONLY'] ?? '').split(','), ...process.argv.slice(2)].map((s) => s.trim()).filter(Boolean);
const unknown = only.filter((n) => !(n in BENCHES));
if (unknown.length > 0) throw new Error(`BENCH_ONLY names no benchmark ${unknown.join(', ')}; known: ${Object.keys(BENCHES).join(', ')}`);

const fmt = (n: number, unit: string): string => n.toFixed(unit === 'req/s' || unit === 'msg/s' ? 0 : 2);
for (const [name, bench] of Object.entries(BENCHES)) {
  if (only.length > 0 ? !only.includes(name) : name === 'cluster') continue;
  console.log(`# ${name}`);
  for (const r of await bench()) {
    const unit = r.unit ?? 'ms/op';
    const against = r.floor === undefined ? '' : ` | floor ${fmt(r.floor, unit)} ${unit} | ratio ${(r.ratio ?? r.ours / r.floor).toFixed(2)}`;
    console.log(`${r.name}\n  ours ${fmt(r.ours, unit)} ${unit}${against} (target ${r.target})`);
  }
}
