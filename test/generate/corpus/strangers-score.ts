// Scores the built-in generator on the issue-44 corpus (strangers/: composed by compose.py, 60 held
// aside in aside.json). Each case is scored like the real/ corpus (real-score.ts), plus: descriptions
// that must be refused ("refuse": ISO 639-3 codes) and were, with the language named; descriptions
// refused that should not be; the signer count exact; and roles that are not parties (a fragment of a
// sentence rather than a party the description names or the neutral "Signer").
import { readFileSync } from 'node:fs';
import { generateBuiltin } from '../../../src/domain/generate/builtin.js';
import { WORDS, fold } from '../../../src/domain/generate/lexicon.js';
import { UnsupportedLanguageError, type GeneratedSpec, type Language } from '../../../src/domain/generate/spec.js';
import { realTotals, scoreReal, type RealCase, type RealScore, type RealTotals } from './real-score.js';

export interface StrangerCase extends RealCase { variant: string; refuse?: string }

export function loadStrangers(set: 'tuning' | 'aside'): StrangerCase[] {
  return (JSON.parse(readFileSync(new URL(`./strangers/${set}.json`, import.meta.url), 'utf8')) as { cases: StrangerCase[] }).cases;
}

export interface StrangerScore { c: StrangerCase; score?: RealScore; refused?: string; signerCountExact?: boolean; badRoles: string[]; ms: number }

const norm = (s: string): string => fold(s).replace(/[^a-z0-9]+/g, ' ').trim();

export function scoreStranger(c: StrangerCase): StrangerScore {
  const t0 = performance.now();
  let spec: GeneratedSpec | undefined;
  let refused: string | undefined;
  try {
    spec = generateBuiltin(c.prompt);
  } catch (err) {
    if (!(err instanceof UnsupportedLanguageError)) throw err;
    refused = err.detected ?? err.language ?? '?';
  }
  const ms = performance.now() - t0;
  if (c.refuse) return { c, refused: refused ?? '', badRoles: [], ms };
  const used: GeneratedSpec = spec ?? { title: '', language: 'en', fields: [], signers: [] };
  const score = scoreReal(c, used, ms);
  const parties = c.signers.map((p) => p.replace(/\?$/, '').split('|').map(norm));
  // "pt-BR" reads as "pt".
  const neutral = norm(WORDS[(c.lang.slice(0, 2) as Language)]?.signer ?? 'signer');
  const badRoles = used.signers.map((s) => s.role).filter((role) => {
    const r = norm(role);
    return !(r.startsWith(neutral) || r.startsWith('signer') || r.startsWith('party') || parties.some((alts) => alts.some((a) => r.includes(a))));
  });
  return { c, score, ...(refused ? { refused } : {}), signerCountExact: used.signers.length === Math.max(1, c.signers.length), badRoles, ms };
}

export interface StrangerTotals extends RealTotals {
  signerCountExact: number; refusedRight: string; wrongRefusals: number; badRoles: string[];
}

export function strangerTotals(scores: readonly StrangerScore[]): StrangerTotals {
  const scored = scores.filter((s) => s.score !== undefined);
  const toRefuse = scores.filter((s) => s.c.refuse);
  const right = toRefuse.filter((s) => s.refused && s.c.refuse!.split('|').includes(s.refused)).length;
  return {
    ...realTotals(scored.map((s) => s.score!)),
    signerCountExact: scored.filter((s) => s.signerCountExact).length / Math.max(1, scored.length),
    refusedRight: `${right}/${toRefuse.length}`,
    wrongRefusals: scored.filter((s) => s.refused).length,
    badRoles: scored.flatMap((s) => s.badRoles.map((r) => `${s.c.id}: "${r}"`)),
  };
}
