import { pathToFileURL } from 'node:url';
import { load, startServer, type BenchRow } from './load.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);

/**
 * GET /api/v1/templates (authenticated, 20 templates, SQLite) and POST /api/v1/forms (20 prefill keys)
 * against a bare Fastify floor serving the same payloads, in one run.
 */
export async function run(): Promise<BenchRow[]> {
  const api = await startServer<{ port: number; key: string; wideTemplateId: string }>('bench/servers/api-server.ts');
  const auth = { authorization: `Bearer ${api.info.key}`, 'content-type': 'application/json' };
  const prefill = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`field_${i}`, `value number ${i} Łódź`]));
  const formBody = JSON.stringify({ template_id: api.info.wideTemplateId, prefill });
  const base = `http://127.0.0.1:${api.info.port}`;
  // Real payloads for the floor, so both sides serialise the same bytes.
  const listPayload = await (await fetch(`${base}/api/v1/templates`, { headers: auth })).text();
  const formPayload = await (await fetch(`${base}/api/v1/forms`, { method: 'POST', headers: auth, body: formBody })).text();
  const floor = await startServer<{ port: number }>('bench/servers/floor-server.ts', { BENCH_LIST_PAYLOAD: listPayload, BENCH_FORM_PAYLOAD: formPayload });
  const floorBase = `http://127.0.0.1:${floor.info.port}`;
  const opts = { connections: CONNECTIONS, durationSec: DURATION };
  try {
    // Warm both (JIT, caches) before measuring.
    load({ ...opts, durationSec: 2, url: `${floorBase}/floor` });
    load({ ...opts, durationSec: 2, url: `${base}/api/v1/templates`, headers: auth });
    load({ ...opts, durationSec: 2, method: 'POST', url: `${floorBase}/floor`, headers: { 'content-type': 'application/json' }, body: formBody });
    load({ ...opts, durationSec: 2, method: 'POST', url: `${base}/api/v1/forms`, headers: auth, body: formBody });
    const floorGet = load({ ...opts, url: `${floorBase}/floor` });
    const oursGet = load({ ...opts, url: `${base}/api/v1/templates`, headers: auth });
    const floorPost = load({ ...opts, method: 'POST', url: `${floorBase}/floor`, headers: { 'content-type': 'application/json' }, body: formBody });
    const oursPost = load({ ...opts, method: 'POST', url: `${base}/api/v1/forms`, headers: auth, body: formBody });
    for (const [name, r] of Object.entries({ floorGet, oursGet, floorPost, oursPost })) {
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    }
    return [
      { name: 'GET /api/v1/templates (20 templates, SQLite) vs bare Fastify', ours: oursGet.requestsPerSec, floor: floorGet.requestsPerSec, ratio: oursGet.requestsPerSec / floorGet.requestsPerSec, target: '>= 0.6', unit: 'req/s' },
      { name: 'POST /api/v1/forms (20 prefill keys, SQLite) vs bare Fastify POST with schema', ours: oursPost.requestsPerSec, floor: floorPost.requestsPerSec, ratio: oursPost.requestsPerSec / floorPost.requestsPerSec, target: '>= 0.4', unit: 'req/s' },
    ];
  } finally {
    await Promise.all([api.stop(), floor.stop()]);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await run()) console.log(`${r.name}: ours ${r.ours.toFixed(0)} ${r.unit}, floor ${r.floor.toFixed(0)} ${r.unit}, ratio ${r.ratio.toFixed(2)} (target ${r.target})`);
}
