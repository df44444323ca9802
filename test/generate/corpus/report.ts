// The report of a corpus scored as strangers/ is (strangers-score.ts): one table by variant (language)
// and by style, with the refusals and the roles that are no party, and with --verbose each tuning case's
// misses. Used by `npm run eval:generate` (strangers/ and written/) and `npm run eval:written`.
import { strangerTotals, type StrangerScore } from './strangers-score.js';

const pct = (x: number): string => `${(x * 100).toFixed(1).padStart(5)}%`;
const header = `${'group'.padEnd(18)} cases recall  precis  type    signer  count   options multil  requir  frag refused`;

function row(name: string, group: readonly StrangerScore[]): string {
  const t = strangerTotals(group);
  // A group of refusals only has no field figures.
  const none = group.every((g) => !g.score);
  const figures = [t.recall, t.precision, t.typeAccuracy, t.signerAccuracy, t.signerCountExact, t.optionsAccuracy, t.multilineAccuracy, t.requiredAccuracy].map((x) => (none ? '     -' : pct(x))).join(' ');
  return `${name.padEnd(18)} ${String(group.filter((g) => g.score).length).padStart(5)} ${figures} ${String(t.badRoles.length).padStart(5)} ${t.refusedRight.padStart(7)}`;
}

/** What one case got wrong, a line each (nothing when it is right). */
export function caseNotes(s: StrangerScore): string[] {
  if (s.c.refuse) return s.c.refuse.split('|').includes(s.refused ?? '') ? [] : [`want refusal ${s.c.refuse}, got ${s.refused || 'accepted'}`];
  return [...(s.score?.notes ?? []), ...(s.refused ? [`refused as ${s.refused}`] : []), ...(s.signerCountExact ? [] : ['signer count wrong']), ...s.badRoles.map((r) => `bad role "${r}"`)];
}

/** The table (and with `details`, each case's misses first) as lines. */
export function strangerReport(name: string, all: readonly StrangerScore[], details = false): string[] {
  const out: string[] = [];
  if (details) {
    for (const s of all) {
      const notes = caseNotes(s);
      if (notes.length === 0) continue;
      out.push(s.c.refuse ? `${s.c.id}: ${notes[0]}` : `${s.c.id}: ${s.score?.matched}/${s.score?.expected} matched, ${s.score?.generated} generated`);
      if (!s.c.refuse) for (const n of notes) out.push(`   ${n}`);
    }
  }
  const t = strangerTotals(all);
  const p95 = [...all.map((x) => x.ms)].sort((a, b) => a - b)[Math.floor(all.length * 0.95)];
  out.push('', `${name}: ${all.length} cases, refused right ${t.refusedRight}, wrong refusals ${t.wrongRefusals}, roles not a party ${t.badRoles.length}${t.badRoles.length ? ` (${t.badRoles.slice(0, 5).join('; ')})` : ''}, p95 ${p95?.toFixed(1) ?? '-'} ms`);
  out.push(header, row('all', all));
  const scored = all.filter((x) => x.score || x.c.refuse);
  for (const v of [...new Set(scored.map((x) => x.c.variant))]) out.push(row(`  ${v}`, all.filter((x) => x.c.variant === v)));
  for (const st of [...new Set(scored.map((x) => x.c.style))]) out.push(row(`  style ${st}`, all.filter((x) => x.c.style === st)));
  return out;
}
