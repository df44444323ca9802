// `npm run cluster -- --api 2 --workers 2 [--seconds 45] [--concurrency 3] [--faults] [--seed N] [--sabotage]`:
// starts the cluster of test/cluster/cluster.ts, drives forms through it (with the fault schedule of
// faults.ts when --faults is given), and prints the invariants; exit 1 when one fails. --sabotage
// breaks what each check reads after the run, to see every check fail.
import { parseArgs } from 'node:util';
import { build, isStale } from '../../scripts/build.mjs';
import { runScenario } from './scenario.js';

const { values } = parseArgs({
  options: {
    api: { type: 'string', default: '2' },
    workers: { type: 'string', default: '2' },
    seconds: { type: 'string', default: '45' },
    concurrency: { type: 'string', default: '3' },
    faults: { type: 'boolean', default: false },
    seed: { type: 'string' },
    sabotage: { type: 'boolean', default: false },
  },
});
const count = (name: string, v: string | undefined, min: number): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number of at least ${min}`);
  return n;
};
if (values.sabotage && !values.faults) throw new Error('--sabotage needs --faults (it breaks what the fault checks read)');
if (values.sabotage && count('api', values.api, 1) < 2) throw new Error('--sabotage needs --api 2 or more');
if (isStale()) await build();
const { checks } = await runScenario({
  api: count('api', values.api, 1),
  workers: count('workers', values.workers, 1),
  loadMs: count('seconds', values.seconds, 5) * 1000,
  concurrency: count('concurrency', values.concurrency, 1),
  faults: values.faults,
  seed: values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : count('seed', values.seed, 0),
  drainMs: 90_000,
  sabotage: values.sabotage,
  log: (line) => console.log(line),
});
process.exitCode = checks.every((c) => c.ok) ? 0 : 1;
