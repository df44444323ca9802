// `npm run bench`: every benchmark in one run, each reported as a ratio against its floor.
import * as http from './http.bench.js';
import * as render from './render.bench.js';

interface Row { name: string; ours: number; floor: number; ratio: number; target: string; unit?: string }

const rows: Row[] = [...(await http.run()), ...(await render.run())];
for (const r of rows) {
  const unit = r.unit ?? 'ms/op';
  console.log(`${r.name}\n  ours ${r.ours.toFixed(unit === 'req/s' ? 0 : 2)} ${unit} | floor ${r.floor.toFixed(unit === 'req/s' ? 0 : 2)} ${unit} | ratio ${r.ratio.toFixed(2)} (target ${r.target})`);
}
