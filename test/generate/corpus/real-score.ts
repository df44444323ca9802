// Scores a generator against the corpus in real/ (descriptions as people write them, in six
// languages and five styles). One case: {id, style, prompt, signers, fields}.
//
// `signers` are the parties in the order named, each "alt|alt" (one must occur in the signer's role or
// its signature field's label), "?" at the end when that party signs only under a condition. Every
// party expects a signature field in its slot; no parties means one signer, unnamed.
// `fields` are "alt|alt:type" then, in this order, "@slot", "?" (not required), "~" (multiline) and
// "=option/option" (the choices, in any order).
// Cases whose id ends in "-5" (one per style and language, 30 in all) are held aside: the generator is
// tuned only on the others, and both are reported.
import { readdirSync, readFileSync } from 'node:fs';
import type { GeneratedSpec } from '../../../src/domain/generate/spec.js';

export interface RealCase { id: string; style: string; lang: string; prompt: string; signers: string[]; fields: string[] }

interface Want { alts: string[]; type: string; slot?: number; required: boolean; multiline: boolean; options?: string[]; party: boolean }

export function loadReal(): RealCase[] {
  const dir = new URL('./real/', import.meta.url);
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().flatMap((f) => {
    const cases = (JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as { cases: Array<Omit<RealCase, 'lang'>> }).cases;
    return cases.map((c) => ({ ...c, lang: f.replace(/\.json$/, '') }));
  });
}

export const isAside = (c: RealCase): boolean => c.id.endsWith('-5');

const norm = (s: string): string => ` ${s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/ß/g, 'ss').replace(/[^a-z0-9]+/g, ' ').trim()} `;
const FIELD = /^(.+?):([a-z_]+)(?:@(\d+))?(\?)?(~)?(?:=(.*))?$/;

function wants(c: RealCase): Want[] {
  const out: Want[] = c.fields.map((spec) => {
    const m = FIELD.exec(spec);
    if (!m) throw new Error(`${c.id}: bad field "${spec}"`);
    const w: Want = { alts: m[1]!.split('|').map((a) => norm(a).trim()), type: m[2]!, required: !m[4], multiline: !!m[5], party: false };
    if (m[3]) w.slot = Number(m[3]);
    if (m[6]) w.options = m[6].split('/').map((o) => norm(o).trim());
    return w;
  });
  // No parties named: one signer, whatever its signature block is called.
  const parties = c.signers.length > 0 ? c.signers : [''];
  parties.forEach((p, i) => {
    const optional = p.endsWith('?');
    out.push({ alts: p.replace(/\?$/, '').split('|').map((a) => norm(a).trim()), type: 'signature', slot: i + 1, required: !optional, multiline: false, party: true });
  });
  return out;
}

export interface RealScore {
  id: string; lang: string; style: string; aside: boolean;
  expected: number; generated: number; matched: number; typed: number;
  options: [number, number]; multiline: [number, number]; required: [number, number];
  /** Every party has its own signature block (and no party is missing or merged). */
  signersRight: boolean; multiParty: boolean; everyPartySigns: boolean;
  notes: string[]; ms: number;
}

export function scoreReal(c: RealCase, spec: GeneratedSpec, ms = 0): RealScore {
  const fields = spec.fields;
  const roleOf = (slot: number): string => spec.signers.find((s) => s.slot === slot)?.role ?? '';
  const text = fields.map((f) => norm(`${f.name} ${f.label} ${f.type === 'signature' ? roleOf(f.signer) : ''}`));
  const want = wants(c);
  const used = new Set<number>();
  const at = new Map<number, number>();
  // Pass 0 wants the right type (and slot for parties), pass 1 any type: "tenant" finds the tenant's
  // name for text and the tenant's signature for signature.
  for (const pass of [0, 1]) {
    want.forEach((w, i) => {
      if (at.has(i)) return;
      const j = fields.findIndex((f, k) => !used.has(k) && w.alts.some((a) => text[k]!.includes(` ${a} `) || text[k]!.includes(a))
        && (pass === 1 || (f.type === w.type && (!w.party || f.signer === w.slot))));
      if (j >= 0) { used.add(j); at.set(i, j); }
    });
  }
  const notes: string[] = [];
  let typed = 0;
  const options: [number, number] = [0, 0];
  const multiline: [number, number] = [0, 0];
  const required: [number, number] = [0, 0];
  want.forEach((w, i) => {
    const j = at.get(i);
    const label = `${w.alts[0]}:${w.type}`;
    if (j === undefined) { notes.push(`miss  ${label}${w.party ? ` (party ${w.slot})` : ''}`); return; }
    const f = fields[j]!;
    if (f.type === w.type && (w.slot === undefined || f.signer === w.slot)) typed++;
    else notes.push(`type  ${label}${w.slot ? `@${w.slot}` : ''} got ${f.type}@${f.signer} "${f.label}"`);
    if (w.options) {
      options[1]++;
      const got = (f.options ?? []).map((o) => norm(o).trim());
      if (got.length === w.options.length && w.options.every((o) => got.includes(o))) options[0]++;
      else notes.push(`opts  ${label} want ${w.options.join('/')} got ${got.join('/') || '-'}`);
    }
    if (w.type === 'text') {
      multiline[1]++;
      if ((f.multiline === true) === w.multiline) multiline[0]++;
      else notes.push(`multi ${label} want ${w.multiline}`);
    }
    if (w.type !== 'date_signed') {
      required[1]++;
      if (f.required === w.required) required[0]++;
      else notes.push(`req   ${label} want ${w.required} "${f.label}"`);
    }
  });
  fields.forEach((f, k) => { if (!used.has(k)) notes.push(`extra ${f.label}:${f.type}@${f.signer}`); });
  const parties = want.filter((w) => w.party);
  const partyOk = parties.map((w) => want.indexOf(w)).map((i) => {
    const j = at.get(i);
    return j !== undefined && fields[j]!.type === 'signature' && fields[j]!.signer === want[i]!.slot;
  });
  const sigSlots = new Set(fields.filter((f) => f.type === 'signature').map((f) => f.signer));
  return {
    id: c.id, lang: c.lang, style: c.style, aside: isAside(c),
    expected: want.length, generated: fields.length, matched: at.size, typed, options, multiline, required,
    signersRight: partyOk.every(Boolean) && sigSlots.size === parties.length,
    multiParty: c.signers.length >= 2,
    everyPartySigns: partyOk.every(Boolean),
    notes, ms,
  };
}

export interface RealTotals {
  cases: number; recall: number; precision: number; typeAccuracy: number; signerAccuracy: number;
  partySignatures: number; optionsAccuracy: number; multilineAccuracy: number; requiredAccuracy: number;
}

export function realTotals(scores: readonly RealScore[]): RealTotals {
  const sum = (f: (s: RealScore) => number): number => scores.reduce((n, s) => n + f(s), 0);
  const ratio = (a: number, b: number): number => (b === 0 ? 1 : a / b);
  const multi = scores.filter((s) => s.multiParty);
  return {
    cases: scores.length,
    recall: ratio(sum((s) => s.matched), sum((s) => s.expected)),
    precision: ratio(sum((s) => s.matched), sum((s) => s.generated)),
    typeAccuracy: ratio(sum((s) => s.typed), sum((s) => s.matched)),
    signerAccuracy: ratio(scores.filter((s) => s.signersRight).length, scores.length),
    partySignatures: ratio(multi.filter((s) => s.everyPartySigns).length, multi.length),
    optionsAccuracy: ratio(sum((s) => s.options[0]), sum((s) => s.options[1])),
    multilineAccuracy: ratio(sum((s) => s.multiline[0]), sum((s) => s.multiline[1])),
    requiredAccuracy: ratio(sum((s) => s.required[0]), sum((s) => s.required[1])),
  };
}
