// A grammar of choices and repeated rows, applied sentence by sentence before fields are read. Choices
// are rewritten to the one form the field reader knows, "label (a, b, c)", whichever way they were
// written: "a | b | c", "[ ] yes [ ] no", "☐ a ☐ b", "S / M / L", "1/2/3", "one of: a, b or c".
// "Tick all that apply" makes one tick box per choice (the type system has no multi-select), and a
// repeated row ("up to 3 children: name and date of birth each", "Items 1–5: description, qty, price")
// one field per row and column: "Child 1 name", "Child 1 date of birth", "Child 2 name" …
import { fold, YES_NO } from './lexicon.js';

/** In a choice's remarks: "tick all that apply" under this label (spaces kept as word joiners). */
export const MULTI_MARK = '\u2064multi:';
/** In a row cell's remarks: one cell of a repeated row (short, and not required). */
export const ROW_MARK = '\u2064row';
/** Stands for the word "row" in the description's language (prepare.ts puts it in): "Row 1 Description". */
export const ROW_NOUN_MARK = '\u2064rownoun';
const JOIN = '\u2060';
export const encodeLabel = (s: string): string => s.replace(/\s+/g, JOIN);
export const decodeLabel = (s: string): string => s.replaceAll(JOIN, ' ');

const BOX = /\[\s?\]|☐|□/g;
const TICK_ALL = /\(?\s*(?:(?:tick|check|select|mark|choose)\s+(?:all|any|as many as)\s+(?:that|which)\s+apply|(?:marque|seleccione|elija)\s+(?:todas?\s+)?(?:las|los)\s+que\s+correspondan|(?:cochez|s[ée]lectionnez)\s+toutes\s+les\s+(?:cases|r[ée]ponses|mentions)\s+(?:utiles|qui\s+conviennent|qui\s+s['’]appliquent)|alles\s+zutreffende\s+ankreuzen|zutreffendes\s+ankreuzen|mehrfachnennung(?:en)?\s+m[öo]glich|mehrfachauswahl\s+m[öo]glich|barrare\s+tutte\s+le\s+(?:voci|caselle)\s+(?:pertinenti|che\s+interessano)|sono\s+possibili\s+pi[uù]\s+risposte|assinale\s+todas\s+as\s+op[çc][õo]es\s+(?:aplic[áa]veis|que\s+se\s+aplicam)|marque\s+todas\s+as\s+op[çc][õo]es|v[áa]rias\s+respostas\s+poss[íi]veis)\s*\)?\s*[:\-–—]?\s*/iu;
const ONE_OF = /,?\s*\b(?:one of|either|una de|uno de|l['’]une? de|eine[rs]? von|eine der folgenden|una tra|uno tra|una fra|uma de|um de)\s*:?\s+/iu;
const LIST = /\s*,\s*|\s+(?:or|o|ou|oder|u|and|y|e|et|und)\s+/i;
const ROW_UP_TO = /\b(?:up to|a maximum of|max(?:imum)?\.?|hasta|jusqu['’](?:à|a)|bis zu|fino a|at[ée]|room for|space for|espacio para|place pour|platz f[üu]r|spazio per|espa[çc]o para)\s+(\d{1,2})\s+(\p{L}[\p{L}-]*)(?:[^:.;()\n]{0,60}?\s*(?:\(|:)|\s*,|\s+(?=jeweils|je\s))\s*(?:jeweils\s+|je\s+)?([^.;()\n]+?)\s*(?:\b(?:for each|each|per (?:row|person)|de cada un[oa]|de cada um[a]?|pour chacun(?:e)?|jeweils|per ciascun[oa]|per ognuno)\b)?\s*\)?\s*(?=[.;\n]|$)/iu;
const ROW_RANGE = /(\p{L}[\p{L}-]*)\s+(?:da\s+|de\s+|von\s+)?1\s*(?:[-–]|to|a|à|bis|al|até)\s*(\d{1,2})\s*:\s*([^.;\n]+?)\s*(?=[.;\n]|$)/iu;

/** Every sentence of every line, its choices and rows rewritten. */
export function rewriteChoices(lines: string[]): string[] {
  return lines.map((line) => line.split(/(?<=[.!?;])\s+(?=\S)/).map(sentence).join(' '));
}

function sentence(s: string): string {
  // One choice list rewritten a pass: "meal chicken | fish | veggie, will they attend yes/no" has two.
  let out = s;
  for (let i = 0; i < 6; i++) {
    const next = choices(out);
    if (next === out) break;
    out = next;
  }
  return rows(out);
}

/** Where the label ends: after the last comma or colon before the choices, at the start otherwise. */
function labelBefore(text: string): { prefix: string; label: string } {
  const t = text.replace(/[\s:–—-]+$/, '');
  const cut = Math.max(t.lastIndexOf(','), t.lastIndexOf(':'), t.lastIndexOf('?'));
  const label = t.slice(cut + 1).trim();
  return { prefix: cut >= 0 ? `${t.slice(0, cut + 1)} ` : '', label };
}

const cleanOption = (o: string): string => o.trim().replace(/^[-–—:,]+|[.,;:!?]+$/g, '').trim();
const shortOptions = (xs: string[]): boolean => xs.length >= 2 && xs.every((x) => x !== '' && x.split(/\s+/).length <= 4);

/** "Vegetarier ja oder nein", "bills included yes or no", "baja médica sí o no", "can the dog go off lead y/n": a yes/no question. */
const TRAILING_YES_NO = /(\p{L}[^,.;:()?]*?)\s*\??\s+(?:yes or no|ja oder nein|oui ou non|s[ií] o no|sim ou n[ãa]o|y\/n|j\/n|s\/n|o\/n)(?=\s*[,.;!)]|\s*$|\s+(?:and|und|et|y|e|ed)\s)/giu;

function choices(s: string): string {
  if (TRAILING_YES_NO.test(s)) {
    TRAILING_YES_NO.lastIndex = 0;
    return s.replace(TRAILING_YES_NO, (_, label: string) => `${label} (yes, no)`);
  }
  const tick = TICK_ALL.exec(s);
  if (tick) {
    const { prefix, label } = labelBefore(s.slice(0, tick.index));
    const rest = s.slice(tick.index + tick[0].length);
    const end = rest.search(/[.;](?:\s|$)/);
    const list = (end >= 0 ? rest.slice(0, end) : rest);
    const opts = (BOX.test(list) ? list.split(BOX) : list.split(/\s+\/\s+|\s*\|\s*|\s*,\s*|\s+(?:or|o|ou|oder|and|y|e|et|und)\s+/i)).map(cleanOption).filter(Boolean);
    BOX.lastIndex = 0;
    if (label && shortOptions(opts)) {
      return `${prefix}${opts.map((o) => `${o} (${MULTI_MARK}${encodeLabel(label)})`).join(', ')}${end >= 0 ? rest.slice(end) : ''}`;
    }
  }
  if (/\([^)]*[|/☐□]/.test(s)) return s;
  const boxes = s.match(BOX)?.length ?? 0;
  if (boxes >= 2) {
    // The boxes' choices end at the first comma after the last box: "diet ☐ none ☐ vegan, and comments".
    const at = s.search(BOX);
    const lastBox = Math.max(s.lastIndexOf('☐'), s.lastIndexOf('□'), s.lastIndexOf(']'));
    const comma = s.indexOf(',', lastBox);
    const to = comma >= 0 ? comma : s.length;
    return `${rewrite(s.slice(0, to), at, s.slice(at, to).split(BOX))}${s.slice(to)}`;
  }
  for (const sep of [/\s*\|\s*/, /\s+\/\s+/]) {
    // The choices are the comma-separated piece with the separators in it: "name, size S / M / L, email".
    const first = s.search(sep);
    if (first < 0) continue;
    const from = s.lastIndexOf(',', first) + 1;
    const comma = s.indexOf(',', first);
    const to = comma >= 0 ? comma : s.length;
    const chunk = s.slice(from, to);
    const parts = chunk.split(sep);
    const colon = parts[0]!.lastIndexOf(':');
    if (parts.length >= 3 || (parts.length === 2 && colon >= 0)) {
      // The first choice starts after the colon, or is the last word before the first separator.
      const at = colon >= 0 ? colon + 1 : parts[0]!.search(/\S+\s*$/);
      const done = rewrite(chunk, at, chunk.slice(at).split(sep));
      return `${s.slice(0, from)}${/^\s*/.exec(chunk)![0]}${done.trimStart()}${s.slice(to)}`;
    }
  }
  // "Preferred day: Mon/Tue/Wed", "Overall rating 1/2/3/4/5": bare slashes between short words.
  const bare = /(?::\s*|\s)([^\s/,.;:()]{1,15}(?:\/[^\s/,.;:()]{1,15}){1,9})(?=[\s.,;]|$)/u.exec(s);
  // "will they attend yes/no": two answers that are yes and no need no colon.
  const yesNo = bare !== null && bare[1]!.split('/').length === 2 && bare[1]!.split('/').every((x) => YES_NO.test(fold(x)));
  if (bare && !/^\d{1,2}\/\d{1,2}\/\d{2,4}$/.test(bare[1]!) && (/:\s*$/.test(s.slice(0, bare.index + 1)) || bare[1]!.split('/').length >= 3 || yesNo)) {
    const at = bare.index + bare[0].length - bare[1]!.length;
    return rewrite(s, at, bare[1]!.split('/'), at + bare[1]!.length);
  }
  const oneOf = ONE_OF.exec(s);
  if (oneOf) {
    const rest = s.slice(oneOf.index + oneOf[0].length);
    const end = rest.search(/[.;(](?:\s|$)/);
    const opts = (end >= 0 ? rest.slice(0, end) : rest).split(LIST).map(cleanOption).filter(Boolean);
    if (shortOptions(opts)) return `${s.slice(0, oneOf.index)} (${opts.join(', ')})${end >= 0 ? rest.slice(end) : ''}`;
  }
  return s;
}

/** "label: a | b | c." → "label (a, b, c)." The choices run to the sentence's end (or `until`). */
function rewrite(s: string, at: number, parts: string[], until?: number): string {
  let tail = '';
  const opts = parts.map(cleanOption);
  if (until !== undefined) tail = s.slice(until);
  else {
    const m = /[.;!?]\s*$/.exec(s);
    if (m) tail = m[0];
  }
  const kept = opts.filter(Boolean);
  const { prefix, label } = labelBefore(s.slice(0, at));
  if (!shortOptions(kept) || !label) return s;
  return `${prefix}${label} (${kept.join(', ')})${tail}`;
}

function rows(s: string): string {
  const up = ROW_UP_TO.exec(s);
  const range = up ? null : ROW_RANGE.exec(s);
  const m = up ?? range;
  if (!m) return looseRows(s);
  const count = Number(m[up ? 1 : 2]);
  const noun = m[up ? 2 : 1]!;
  const columns = m[3]!.replace(/\b(?:for each|each|de cada un[oa]|pour chacun(?:e)?|jeweils|per ciascun[oa])\b/giu, '').split(LIST).map(cleanOption).filter(Boolean);
  if (count < 2 || count > 10 || columns.length === 0 || columns.length * count > 40 || columns.some((c) => c.split(/\s+/).length > 4)) return looseRows(s);
  return `${s.slice(0, m.index)}${cells(singular(noun), count, columns)}${s.slice(m.index + m[0].length)}`;
}

function cells(one: string, count: number, columns: string[]): string {
  const out: string[] = [];
  for (let i = 1; i <= count; i++) for (const c of columns) out.push(`${one} ${i} ${c} (${ROW_MARK})`);
  return out.join(', ');
}

const UP_TO = String.raw`(?:up to|a maximum of|max(?:imum|imo)?\.?|m[áa]x(?:imo)?\.?|massim[oa]|hasta|jusqu['’]?\s?(?:à|a)|bis zu|h[öo]chstens|fino a|at[ée]|no m[áa]ximo)`;
/** "(up to 4)", "(massimo 4)", "(até 4 pessoas)", "(max. 2 Personen)": a count in brackets after the row's noun. */
const COUNT_IN_BRACKETS = new RegExp(String.raw`(?:^|[\s,:;])((?:per ogni|for each|para cada|pour chaque|f[üu]r jede[nrs]?|por cada|ogni)\s+)?([\p{L}][\p{L}'’-]*(?:\s+[\p{L}][\p{L}'’-]*){0,3}?)\s*\(\s*${UP_TO}\s*(\d{1,2})(?:\s+([\p{L}][\p{L}-]*))?\s*\)\s*:\s*`, 'iu');
/** "lists up to 6 expenses, each with …", "até 5 despesas, cada uma com …": the count before the noun, the columns after a comma. */
const COUNT_BEFORE = new RegExp(String.raw`\b${UP_TO}\s+(\d{1,2})\s+([\p{L}][\p{L}-]*)\s*(?:,|:)\s*(?:(?:each|cada uma?|chacun(?:e)?|jeweils|ciascun[oa]|ognuno)\s+(?:with|com|con|avec|mit)\s+|(?:each|jeweils|je)\s+)?`, 'iu');
const NUMBER_WORD: Record<string, number> = { two: 2, three: 3, four: 4, due: 2, tre: 3, quattro: 4, dos: 2, tres: 3, cuatro: 4, deux: 2, trois: 3, quatre: 4, zwei: 2, drei: 3, vier: 4, dois: 2, duas: 2, quatro: 4 };
/** "Dati dei due genitori (…): per ciascuno nome e cognome, codice fiscale …", "the two guests: for each name and email". */
const EACH_OF_COUNT = new RegExp(String.raw`\b(\d{1,2}|${Object.keys(NUMBER_WORD).join('|')}|tr[eê]s)\s+([\p{L}][\p{L}-]*)[^:.;\n]{0,60}:\s*(?:for each(?: one)?|per ciascuno|per ognuno|para cada uno|para cada um|pour chacun|f[üu]r jede[nrs]?|jeweils|de cada uno)\s*:?\s+`, 'iu');
const EACH_TAIL = /\s*(?:,\s*)?\b(?:for each(?: one)?|each|de cada (?:un[oa]|pessoa|persona|\p{L}+)|pour chacun(?:e)?|jeweils|per ciascun[oa]|di ciascun[oa]|de cada)\s*$/iu;

/**
 * The rows ROW_UP_TO and ROW_RANGE miss: the count in brackets ("per ogni ospite (massimo 4): nome,
 * cognome …", "Agregado familiar (até 4 pessoas): nome, …") or before the noun with the columns after a
 * comma ("up to 6 expenses, each with a date, a category (travel, meals or other), the amount"). The
 * columns run to the sentence's end; a column keeps its own choices in brackets.
 */
function looseRows(s: string): string {
  const bracket = COUNT_IN_BRACKETS.exec(s);
  const before = bracket ? null : COUNT_BEFORE.exec(s) ?? EACH_OF_COUNT.exec(s);
  const m = bracket ?? before;
  if (!m) return s;
  const count = Number(bracket ? m[3] : NUMBER_WORD[fold(m[1]!)] ?? m[1]);
  // The noun: after the count ("até 4 pessoas"), else the last word before the bracket ("ospite"), else a neutral row.
  // With the count in brackets, the row replaces its whole clause ("People allowed to collect the child (up to 4):").
  const paren = bracket ? m.index + m[0].indexOf('(') : m.index;
  // "Dati dei due genitori: per ciascuno …": the clause goes whole too.
  const whole = bracket !== null || !COUNT_BEFORE.test(s);
  const clauseStart = whole ? Math.max(...[',', ':', ';', '\n', '•', '-'].map((d) => s.lastIndexOf(d, paren - 1))) + 1 : m.index;
  const clause = s.slice(clauseStart, paren).trim().replace(/^(?:per ogni|for each|para cada|pour chaque|f[üu]r jede[nrs]?|por cada|ogni)\s+/i, '').split(/\s+/);
  const head = clause[0] ?? '';
  // The noun: after the count ("até 4 pessoas"), else the clause's plural head ("People allowed …"), else its last word ("ospite").
  const noun = bracket ? (m[4] ?? (IRREGULAR[fold(head)] || /s$/i.test(head) ? head : clause[clause.length - 1]!)) : m[2]!;
  const from = m.index + m[0].length;
  const rest = s.slice(from);
  // The columns end at the sentence's end, outside brackets.
  let depth = 0;
  let end = rest.length;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i]!;
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && (c === ';' || c === '\n' || (c === '.' && (i + 1 === rest.length || /\s/.test(rest[i + 1]!))))) { end = i; break; }
  }
  const columns = splitTop(rest.slice(0, end).replace(EACH_TAIL, '')).map((c) => cleanOption(c).replace(/^(?:and|or|e|y|et|und|ou|o)\s+/i, '').replace(/^(?:a|an|the|their|its|um|uma|o|a|un|una|une|le|la|il|lo|el|ein|eine|der|die|das)\s+/i, '')).filter(Boolean);
  const words = (c: string): number => c.replace(/\([^()]*\)/g, ' ').replace(/\([^()]*\)/g, ' ').trim().split(/\s+/).length;
  if (count < 2 || count > 10 || columns.length === 0 || columns.length * count > 40 || columns.some((c) => words(c) > 4)) return s;
  const lead = s.slice(0, clauseStart);
  return `${lead}${lead && !/\s$/.test(lead) ? ' ' : ''}${cells(singular(noun), count, columns)}${rest.slice(end)}`;
}

/** Splits a list at commas and "and"/"or" outside brackets: "category (travel, meals or other), amount". */
function splitTop(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  const words = text.split(/(\s*,\s*|\s+(?:and|or|y|o|e|ou|et|und|oder)\s+|[()])/i);
  for (const w of words) {
    if (w === '(') depth++;
    if (w === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && w !== ')' && LIST.test(w) && w.trim() === w.trim().replace(/[^,\p{L}]/gu, '') && (w.includes(',') || /^\s+\p{L}+\s+$/u.test(w))) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += w;
  }
  out.push(cur);
  return out.map((x) => x.trim()).filter(Boolean);
}

const IRREGULAR: Record<string, string> = {
  children: 'child', people: 'person', persons: 'person', kinder: 'Kind', gaste: 'Gast', personen: 'Person', figli: 'figlio', ospiti: 'ospite', referenze: 'referenza',
  bambini: 'bambino', persone: 'persona', partecipanti: 'partecipante', filhos: 'filho', hijos: 'hijo', enfants: 'enfant', teilnehmer: 'Teilnehmer', mitarbeiter: 'Mitarbeiter',
};

/** "children" → "Child", "Positionen" → "Position", "articoli" → "Articolo": the row's noun, capitalised. */
export function singular(noun: string): string {
  const f = fold(noun);
  let one = IRREGULAR[f];
  if (!one) {
    if (/ies$/.test(f)) one = noun.slice(0, -3) + 'y';
    else if (/(?:ionen|enzen)$/.test(f)) one = noun.slice(0, -2);
    else if (/(?:or|nt)i$/.test(f)) one = noun.slice(0, -1) + 'e';
    else if (/[^aeiou]i$/.test(f)) one = noun.slice(0, -1) + 'o';
    else if (/(?:enze|anze)$/.test(f)) one = noun.slice(0, -1) + 'a';
    else if (/[^s]s$/.test(f)) one = noun.slice(0, -1);
    else one = noun;
  }
  return one.charAt(0).toUpperCase() + one.slice(1);
}
