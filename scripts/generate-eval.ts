// Prints the built-in generator's field recall, precision and type accuracy over the corpus in
// test/generate/corpus (npx tsx scripts/generate-eval.ts [--verbose]).
import { generateBuiltin } from '../src/domain/generate/builtin.js';
import { loadCorpus, scoreCase, totals } from '../test/generate/corpus/score.js';

const verbose = process.argv.includes('--verbose');
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
for (const file of ['corpus', 'heldout'] as const) report(file);

function report(file: 'corpus' | 'heldout'): void {
const scores = loadCorpus(file).map((c) => scoreCase(c, generateBuiltin(c.prompt).fields));
const t = totals(scores);
if (verbose) {
  for (const s of t.cases) {
    if (s.misses.length + s.extras.length + s.wrongTypes.length === 0) continue;
    console.log(`${s.id}: ${s.matched}/${s.expected} matched, ${s.generated} generated`);
    for (const m of s.misses) console.log(`   miss  ${m}`);
    for (const e of s.extras) console.log(`   extra ${e}`);
    for (const w of s.wrongTypes) console.log(`   type  ${w}`);
  }
}
console.log(`${file}: cases ${t.cases.length}  expected fields ${t.cases.reduce((n, c) => n + c.expected, 0)}`);
console.log(`${file}: recall ${pct(t.recall)}  precision ${pct(t.precision)}  type accuracy ${pct(t.typeAccuracy)}`);
}
