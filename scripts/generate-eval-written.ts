// `npm run eval:written [-- --verbose] [-- --case ID]`: the built-in generator on the hand-written issue-44
// corpus (test/generate/corpus/written): its tuning set, by language (variant) and by style, with each
// case's misses under --verbose.
// `npm run eval:written -- --aside`: the held-aside set instead, figures only (never a case's misses or
// its text), for the integrator's one final report. The rules are never tuned on it: do not run it
// while working on them.
import { strangerReport } from '../test/generate/corpus/report.js';
import { scoreStranger } from '../test/generate/corpus/strangers-score.js';
import { loadWritten } from '../test/generate/corpus/written-score.js';

const aside = process.argv.includes('--aside');
const at = process.argv.indexOf('--case');
const only = at >= 0 ? process.argv[at + 1] : undefined;
if (aside && (only !== undefined || process.argv.includes('--verbose'))) {
  console.error('--aside reports figures only: no --case, no --verbose.');
  process.exit(2);
}
const cases = loadWritten(aside ? 'aside' : 'tuning').filter((c) => only === undefined || c.id === only);
if (cases.length === 0) {
  console.error(`No ${aside ? 'held-aside' : 'tuning'} cases in test/generate/corpus/written${only ? ` with id ${only}` : ''}.`);
  process.exit(1);
}
const scores = cases.map(scoreStranger);
console.log(strangerReport(`written ${aside ? 'held aside' : 'tuning'}`, scores, !aside && process.argv.includes('--verbose')).join('\n'));
