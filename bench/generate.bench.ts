// Forms from a description: built-in generation + PDF layout, in one process (what the pool's
// "generate" job and the rules before it cost). Run: node --import tsx bench/generate.bench.ts [runs]
// Targets (issue 16): p50 < 50 ms for a 10-field description, < 200 ms for a 60-field one.
import { generateBuiltin } from '../src/domain/generate/builtin.js';
import { layoutForm } from '../src/pdf/index.js';

const TEN = 'Job application: full name, email, phone number, date of birth, position applied for (full-time, part-time), '
  + 'expected salary, start date, cover letter, I confirm the information is true. Applicant signature.';

const ITEMS = ['full name', 'email address', 'mobile phone', 'date of birth', 'home address', 'monthly income', 'comments',
  'start date', 'employer', 'job title', 'do you drive (yes or no)', 'shirt size (S, M, L, XL)', 'number of children', 'notes (optional)'];
const SIXTY = `Member survey: ${Array.from({ length: 58 }, (_, i) => `${ITEMS[i % ITEMS.length]} ${Math.floor(i / ITEMS.length) + 1}`).join(', ')}. `
  + 'Member and witness sign.';

async function once(prompt: string): Promise<{ ms: number; fields: number; pages: number }> {
  const t0 = performance.now();
  const spec = generateBuiltin(prompt);
  const out = await layoutForm({ title: spec.title, fields: spec.fields, signers: spec.signers, pageSize: 'letter', language: spec.language, requiredNote: '* required' });
  return { ms: performance.now() - t0, fields: spec.fields.length, pages: out.pageCount };
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

// Issue 44: a pasted e-mail thread asking for 30 fields (headers, quoted reply, choices, a repeated row),
// the generator alone (language identification included): target p95 < 50 ms.
const THIRTY_PASTED = `From: Rachel Lewis <rachel@example.com>\nSent: Tuesday, 3 March 2026 09:14\nTo: Sam\nSubject: Intake form\n\nHi Sam,\n\n`
  + `Could you set up the intake form? ${ITEMS.slice(0, 10).join(', ')}. Preferred shift: morning | afternoon | night. `
  + 'Dietary requirements (tick all that apply): vegetarian, vegan, halal. Up to 4 children: name, date of birth and school each. '
  + 'Overall rating 1/2/3/4/5. The employee signs and the manager countersigns; everyone dates it.\n\nThanks,\nRachel\n\n'
  + 'On Mon, 2 Mar 2026 at 17:05, Sam <sam@example.com> wrote:\n> Sure, send me what you need.';

export async function benchGenerate(runs = 100): Promise<Array<{ name: string; p50: number; p95: number; fields: number; pages: number; target: number; metric?: 'p50' | 'p95' }>> {
  const results = [];
  for (const [name, prompt, target] of [['10 fields', TEN, 50], ['60 fields', SIXTY, 200]] as const) {
    for (let i = 0; i < 10; i++) await once(prompt); // warm-up: JIT and the font faces
    const times: number[] = [];
    let last = { ms: 0, fields: 0, pages: 0 };
    for (let i = 0; i < runs; i++) {
      last = await once(prompt);
      times.push(last.ms);
    }
    results.push({ name, p50: pct(times, 50), p95: pct(times, 95), fields: last.fields, pages: last.pages, target });
  }
  for (let i = 0; i < 20; i++) generateBuiltin(THIRTY_PASTED);
  const times: number[] = [];
  for (let i = 0; i < runs * 3; i++) {
    const t0 = performance.now();
    generateBuiltin(THIRTY_PASTED);
    times.push(performance.now() - t0);
  }
  results.push({ name: '30 fields pasted, generator only', p50: pct(times, 50), p95: pct(times, 95), fields: generateBuiltin(THIRTY_PASTED).fields.length, pages: 0, target: 50, metric: 'p95' as const });
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = Number(process.argv[2] ?? 100);
  for (const r of await benchGenerate(runs)) {
    const metric = r.metric ?? 'p50';
    console.log(`${r.name.padEnd(10)} (${r.fields} fields, ${r.pages} page${r.pages === 1 ? '' : 's'}): p50 ${r.p50.toFixed(1)} ms  p95 ${r.p95.toFixed(1)} ms  target ${metric} < ${r.target} ms  ${r[metric] < r.target ? 'ok' : 'MISSED'}`);
  }
}
