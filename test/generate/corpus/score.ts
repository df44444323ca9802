// Scores a generator against the corpus: each expected field is matched (one to one, in order) to a
// generated field whose name or label contains one of its alternatives. Recall = matched expected /
// expected; precision = matched generated / generated; type accuracy = matched with the right type /
// matched (a signature matched to the wrong signer slot counts as a wrong type).
import { readFileSync } from 'node:fs';
import type { GeneratedField } from '../../../src/domain/generate/spec.js';

export interface Expected { m: string; t: string; s?: number }
export interface Case { id: string; prompt: string; fields: Expected[] }

/** corpus.json (written before the rules), and heldout.json (added after the first tuning, to check they generalise). */
export function loadCorpus(file: 'corpus' | 'heldout' = 'corpus'): Case[] {
  const text = readFileSync(new URL(`./${file}.json`, import.meta.url), 'utf8');
  return (JSON.parse(text) as { cases: Case[] }).cases;
}

const norm = (s: string): string => ` ${s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim()} `;

export interface CaseScore { id: string; expected: number; generated: number; matched: number; typed: number; misses: string[]; extras: string[]; wrongTypes: string[] }

export function scoreCase(c: Case, fields: readonly GeneratedField[]): CaseScore {
  const used = new Set<number>();
  const misses: string[] = [];
  const wrongTypes: string[] = [];
  let typed = 0;
  // Two passes: first a match with the right type, then any match, so "tenant" finds the tenant's
  // name field for text and the tenant's signature for signature.
  const assignment = new Map<number, number>();
  for (const pass of [0, 1]) {
    c.fields.forEach((e, i) => {
      if (assignment.has(i)) return;
      const alts = e.m.split('|').map((a) => norm(a).trim());
      const at = fields.findIndex((f, j) => !used.has(j) && alts.some((a) => norm(`${f.name} ${f.label}`).includes(` ${a} `) || norm(`${f.name} ${f.label}`).includes(a))
        && (pass === 1 || f.type === e.t));
      if (at >= 0) { used.add(at); assignment.set(i, at); }
    });
  }
  c.fields.forEach((e, i) => {
    const at = assignment.get(i);
    if (at === undefined) { misses.push(`${e.m}:${e.t}`); return; }
    const f = fields[at]!;
    if (f.type === e.t && (e.s === undefined || f.signer === e.s)) typed++;
    else wrongTypes.push(`${e.m}: want ${e.t}${e.s ? `@${e.s}` : ''}, got ${f.type}@${f.signer} (${f.label})`);
  });
  const extras = fields.filter((_, j) => !used.has(j)).map((f) => `${f.label}:${f.type}`);
  return { id: c.id, expected: c.fields.length, generated: fields.length, matched: assignment.size, typed, misses, extras, wrongTypes };
}

export interface Totals { recall: number; precision: number; typeAccuracy: number; cases: CaseScore[] }

export function totals(cases: CaseScore[]): Totals {
  const sum = (k: 'expected' | 'generated' | 'matched' | 'typed'): number => cases.reduce((n, c) => n + c[k], 0);
  return {
    recall: sum('matched') / sum('expected'),
    precision: sum('matched') / Math.max(1, sum('generated')),
    typeAccuracy: sum('typed') / Math.max(1, sum('matched')),
    cases,
  };
}
