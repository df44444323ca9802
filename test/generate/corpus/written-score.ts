// The issue-44 corpus written by hand, as strangers write (test/generate/corpus/written: en/de/fr in
// the "-a"/"-c" files, es/it/pt-BR/pt-PT in the "-b"/"-d" files; 200 tuning cases — "-c"/"-d" were the first
// held-aside 60, reported once in session 16 and tuned on since — and a fresh 60 held aside). The cases
// have the strangers/ format and are scored by the same scorer (strangers-score.ts, itself the real/
// one): this file only finds them. The held-aside files are read only by the integrator's one final
// run (`npm run eval:written -- --aside`): the rules are never tuned on them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { StrangerCase } from './strangers-score.js';

const DIR = new URL('./written/', import.meta.url);

/** Every case of the set's files ("tuning-a.json", "tuning-b.json"…), in file order; none when the folder is absent. */
export function loadWritten(set: 'tuning' | 'aside'): StrangerCase[] {
  if (!existsSync(DIR)) return [];
  return readdirSync(DIR).filter((f) => f.startsWith(`${set}-`) && f.endsWith('.json')).sort().flatMap((f) => {
    const data = JSON.parse(readFileSync(new URL(f, DIR), 'utf8')) as { cases?: StrangerCase[] } | StrangerCase[];
    const cases = Array.isArray(data) ? data : data.cases ?? [];
    // A writer may leave out "variant" (pt-BR / pt-PT are the variants of pt): the language stands for it.
    return cases.map((c) => ({ ...c, variant: c.variant ?? c.lang, style: c.style ?? 'other', signers: c.signers ?? [], fields: c.fields ?? [] }));
  });
}
