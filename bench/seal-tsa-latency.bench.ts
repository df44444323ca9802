// The seal latency of bench/seal-latency.bench.ts (last signer's submit → `form.signed`, p50/p99, 1 and
// 10 pages) with TSA_URLS set: every seal is B-LTA — an RFC 3161 timestamp on the signature, the DSS,
// and a document timestamp — so two time-stamp requests per seal, answered by a loopback TSA
// (test/shared/tsa.ts: `openssl ts -reply` per request under a test CA). Targets (issue 25): p99 < 1 s
// for 1 page, < 3 s for 10 pages. The TSA's own time (an openssl process per request) is part of it,
// as a remote TSA's round trip would be.
// Run: node --import tsx bench/seal-tsa-latency.bench.ts   (BENCH_SEAL_FORMS=5 for a smoke run)
import { pathToFileURL } from 'node:url';
import { makeTestTsaCa, startTsa } from '../test/shared/tsa.js';
import type { BenchRow } from './load.js';
import { run as runSealLatency } from './seal-latency.bench.js';

export async function run(dialect = process.env['BENCH_DIALECT'] ?? 'sqlite'): Promise<BenchRow[]> {
  const ca = makeTestTsaCa();
  const tsa = await startTsa(ca);
  try {
    return await runSealLatency(dialect, { env: { TSA_URLS: tsa.url }, label: 'B-LTA with a loopback TSA (2 timestamps per seal)' });
  } finally {
    await tsa.close();
    ca.remove();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const r of await run()) console.log(`${r.name}\n  ours ${r.ours} ${r.unit} | floor ${r.floor} ${r.unit} | ratio ${r.ratio} (target ${r.target})`);
}
