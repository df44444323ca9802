import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../outbox/support/processes.js';
import { LIMITED_PER_MINUTE, startCluster, type Cluster } from './cluster.js';
import { probeWindow, runFaults, type FaultRun } from './faults.js';
import { checkInvariants, drain, formatChecks, type Check } from './invariants.js';
import { LoadClient } from './load.js';
import { sabotage } from './sabotage.js';

// One run of the cluster: start it, drive forms for a while (with the faults, or without), let the
// cluster finish what it was given, then check the invariants. Used by the fault test and by
// `npm run cluster`.

export interface ScenarioOptions {
  api: number;
  workers: number;
  loadMs: number;
  concurrency: number;
  faults: boolean;
  seed: number;
  drainMs: number;
  /** Break what each check reads after the run (test/cluster/sabotage.ts): every check must then fail. */
  sabotage?: boolean;
  log: (line: string) => void;
}

export interface ScenarioResult {
  checks: Check[];
  report: string;
}

export async function runScenario(o: ScenarioOptions): Promise<ScenarioResult> {
  const started = Date.now();
  const since = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const cluster: Cluster = await startCluster({ api: o.api, workers: o.workers, ...(o.sabotage ? { withoutRedis: [1] } : {}) });
  try {
    o.log(`cluster up after ${since()}: ${o.api} API (${cluster.apis.map((a) => a.base).join(', ')}), ${o.workers} worker(s), database ${cluster.dbName}`);
    const loadEnds = Date.now() + o.loadMs;
    const client = new LoadClient({ bases: cluster.apis.map((a) => a.base), key: cluster.load.key, templateId: cluster.load.templateId, concurrency: o.concurrency, stop: () => Date.now() > loadEnds });
    // The shared window first, before any fault: 1.6 × the window over every API process.
    const shared = await probeWindow(cluster.apis, cluster, client, Math.round(LIMITED_PER_MINUTE * 1.6));
    const load = client.run();
    let faults: FaultRun | undefined;
    if (o.faults) {
      o.log(`faults with seed ${o.seed} (CLUSTER_SEED=${o.seed} repeats the schedule)`);
      faults = await runFaults(cluster, client, { seed: o.seed, windowRequests: Math.round(LIMITED_PER_MINUTE * 1.6), log: o.log });
      faults.probe.shared = shared;
    }
    await load;
    const r = client.record;
    o.log(`load ended after ${since()}: ${r.created.length} created, ${r.sent.size} sent, ${r.viewed.length} viewed, ${r.signed.size} signed`);
    o.log(`drain: ${await drain(cluster, o.drainMs)} (${since()})`);
    if (o.sabotage) for (const what of await sabotage(cluster, r, faults)) o.log(`sabotage: ${what}`);
    const checks = await checkInvariants(cluster, client, faults);
    const report = formatChecks(checks);
    o.log(`invariants (${since()}):\n${report}`);
    return { checks, report };
  } finally {
    // Each process's warnings and errors, for a failure's request ids (test-results/ is not committed).
    const dir = path.join(ROOT, 'test-results', 'cluster');
    fs.mkdirSync(dir, { recursive: true });
    for (const m of [...cluster.apis, ...cluster.workers]) fs.writeFileSync(path.join(dir, `${m.role}-${m.index}.log`), m.log());
    await cluster.close();
  }
}
