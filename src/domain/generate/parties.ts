// Who signs: signing clauses in the six languages, as people write them. "The tenant, landlord and
// guarantor all sign", "firman el arrendador, el inquilino y el fiador", "der Bewerber unterschreibt, der
// Bürge gegebenenfalls auch", "the line manager approves it by signing", "a parent or guardian signs for
// minors". A clause gives its parties (in the order named, optional when a condition goes with them)
// and leaves the rest of the sentence to be read as fields.
import { fold, OPTIONAL } from './lexicon.js';
import type { Language } from './spec.js';

export interface Party {
  /** The role as written, articles removed ("Line manager"); '' for "they" or "the signer". */
  role: string;
  optional: boolean;
  dated: boolean;
  /** The condition under which an optional party signs ("if under 18"), for the field's description. */
  condition?: string;
}

export interface Clause {
  parties: Party[];
  /** "Both parties sign": the parties are the ones the description names elsewhere. */
  both: boolean;
  /** Whether "both parties" sign and date. */
  bothDated: boolean;
  /** What is left of the sentence for the field reader. */
  rest: string;
}

// Verbs of signing. Spanish and Italian "firma" is a verb only before its subject ("firma el padre"),
// a noun otherwise ("firma del participante"); German "Firma" is a company.
const VERB: Record<Language, RegExp> = {
  en: /\b(?:(?:approves?|validates?|confirms?)\s+(?:(?:it|this|them|the \w+)\s+)?by\s+signing|countersigns?|signs?(?![-\s](?:up|in)\b)(?:\s+off)?|signing|signed\s+by|signatures\s+of|approved\s+by)\b/giu,
  es: /(?<![\p{L}])(?:(?:lo |la )?aprueba\s+con\s+su\s+firma|firman|firmas\s+de|firma(?=\s+(?:el|la|los|las|un|una|su|también|y)\b)|firmando|firmar|aprobado\s+por)(?![\p{L}])/giu,
  fr: /(?<![\p{L}])(?:valide\s+en\s+signant|signent|signe|signer|signant|signatures\s+(?:du|de|des)|approuvé\s+par|validé\s+par)(?![\p{L}])/giu,
  de: /(?<![\p{L}])(?:genehmigt\s+mit\s+(?:seiner\s+|ihrer\s+)?Unterschrift|unterschreibt|unterschreiben|unterzeichnet|unterzeichnen|Unterschriften\s+(?:von|der|des))(?![\p{L}])/giu,
  it: /(?<![\p{L}])(?:approva\s+firmando|firmano|firme\s+(?:di|del|della|dei)|firma(?=\s+(?:il|lo|la|l['’]|un|una|anche|e|su)\b)|firmando|firmare)(?![\p{L}])/giu,
  pt: /(?<![\p{L}])(?:aprova\s+assinando|assinam|assina|assinando|assinar|assinaturas\s+(?:do|da|dos|das|de))(?![\p{L}])/giu,
};
/** Verbs whose subject follows them ("signed by the client", "Unterschriften von Mieter und Vermieter"). */
const SUBJECT_AFTER = /^(?:signed\s+by|signatures|approved\s+by|firmas|firme|signatures|unterschriften|assinaturas|aprobado|approuvé|validé)/iu;

const ARTICLE = new Set(['the', 'a', 'an', 'el', 'la', 'los', 'las', 'un', 'una', 'le', 'les', 'une', 'l', 'der', 'die', 'das', 'den', 'dem', 'ein', 'eine', 'einen', 'einer', 'eines', 'il', 'lo', 'gli', 'i', 'o', 'os', 'as', 'um', 'uma', 'su', 'sus', 'son', 'sa', 'ses', 'their', 'his', 'her', 'its', 'any', 'every', 'each', 'seu', 'sua', 'suo']);
const AND = new Set(['and', '&', 'y', 'e', 'et', 'und', 'ed']);
const OR = new Set(['or', 'o', 'ou', 'oder', 'u']);
/** Words that may stand between a subject and its verb: "tenant and landlord both sign", "must sign". */
const MODAL = new Set(['both', 'then', 'also', 'all', 'each', 'must', 'will', 'should', 'shall', 'can', 'may', 'to', 'have', 'has', 'need', 'needs', 'too', 'dann', 'auch', 'ebenfalls', 'beide', 'puis', 'aussi', 'tous', 'toutes', 'luego', 'también', 'ambos', 'ambas', 'después', 'poi', 'anche', 'entrambi', 'entrambe', 'depois', 'também', 'deben', 'doivent', 'müssen', 'devono', 'devem', 'debe', 'doit', 'muss', 'deve']);
/** Inside a role: "responsable de recursos humanos", "head of finance". */
const OF = new Set(['of', 'de', 'del', 'du', 'des', 'di', 'della', 'do', 'da', 'der']);
const PRONOUN = /^(?:they|he|she|you|we|everyone|all|signer|the signer|ellos|ellas|ils|elles|sie|er|loro|eles|elas|it|this)$/i;
const BOTH = /^(?:both(?: parties)?|deux parties|parti|partes|parteien|all parties|each party|the parties|parties|ambas partes|las dos partes|ambas|les deux parties|beide parteien|beide|entrambe le parti|le parti|ambas as partes|as partes|ambos)$/i;
const DATED = /^\s*(?:and|y|et|und|e)\s+(?:dates?|dated|fecha|fechan|datent|date|datiert|datieren|datano|data|datam)\b|\b(?:con la fecha|with the date|avec la date|mit datum|con la data|com a data)\b/i;
const UNDER_AGE = /\b(?:under \d+|minors?|menor(?:es)?|mineurs?|minderjahrig\w*|unter \d+|minorenni|minori|moins de \d+|menos de \d+)\b/;
const CONDITION = new RegExp(`${OPTIONAL.source}|${UNDER_AGE.source}|\\b(?:if there is one|s'il y en a un|si lo hay|si hay|se houver|se c'e|falls es|if there is)\\b`);

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*|[,;]/gu;

/** The signing clauses of one sentence; undefined when it has none. */
export function signingClause(sentence: string, lang: Language): Clause | undefined {
  const hits = [...sentence.matchAll(new RegExp(VERB[lang].source, VERB[lang].flags))];
  if (hits.length === 0) return undefined;
  const parties: Party[] = [];
  const keep: string[] = [];
  let both = false;
  let bothDated = false;
  let consumedTo = 0;
  for (const [i, hit] of hits.entries()) {
    const start = hit.index;
    const nextStart = hits[i + 1]?.index ?? sentence.length;
    const before = sentence.slice(consumedTo, start);
    const after = sentence.slice(start + hit[0].length, nextStart);
    let found: Party[] = [];
    let subjectStart = start;
    let afterUsed = 0;
    if (!SUBJECT_AFTER.test(hit[0])) {
      const back = subjectBefore(before, lang);
      found = back.roles;
      subjectStart = consumedTo + back.start;
    }
    if (found.length === 0) {
      const fwd = subjectAfter(after, lang);
      found = fwd.roles;
      afterUsed = fwd.used;
    }
    // "…, the co-signer too if there is one", "…, der Bürge gegebenenfalls auch".
    const tail = after.slice(afterUsed);
    const more = /^\s*,?\s*(?:(?:and|y|e|et|und|ainsi que|as well as|así como|sowie|così come|assim como)\s*)?,?\s*(.{0,50}?)\s*[.!]?\s*$/iu.exec(tail);
    const extra = more && found.length > 0 && more[1] && CONDITION.test(fold(more[1])) ? subjectAfter(more[1], lang).roles : [];
    const optionalAll = extra.length === 0 && CONDITION.test(fold(tail));
    const dated = DATED.test(tail);
    const lead = sentence.slice(consumedTo, subjectStart);
    // "Only for minors: a parent signs", "Bei Minderjährigen unterschreibt ein Erziehungsberechtigter".
    const conditionedBefore = CONDITION.test(fold(lead)) && /^\s*(?:only |nur |solo |seulement |uniquement |apenas )?(?:if|for|bei|pour|para|per|se|si|falls|wenn|when|für)\b/i.test(fold(lead));
    for (const p of found) {
      p.dated = dated;
      if (optionalAll || conditionedBefore) {
        p.optional = true;
        p.condition ??= conditionText(optionalAll ? tail : lead);
      }
    }
    for (const p of extra) {
      p.optional = true;
      p.dated = dated;
      p.condition ??= conditionText(more![1]!);
    }
    for (const p of [...found, ...extra]) {
      if (BOTH.test(p.role)) both = true;
      else parties.push(p);
    }
    if (both) bothDated ||= dated;
    if (!conditionedBefore && lead.trim()) keep.push(lead);
    consumedTo = nextStart;
  }
  const rest = keep.join(', ').replace(/\s*(?:,|\b(?:and|then|y|e|et|und|dann|puis|luego|poi|depois)\b)\s*$/i, '').trim();
  return { parties, both, bothDated, rest };
}

function conditionText(text: string): string {
  return text.replace(/^[\s,;:]+|[\s,;:.]+$/g, '').replace(/^(?:and|y|e|et|und|too|also|auch)\s+/i, '').slice(0, 120);
}

interface Found { roles: Party[]; start: number; used: number }

/** Walks back from the verb over "the tenant, landlord and guarantor (all)". */
function subjectBefore(before: string, lang: Language): Found {
  const tokens = [...before.matchAll(WORD)];
  let i = tokens.length - 1;
  while (i >= 0 && MODAL.has(tokens[i]![0].toLowerCase())) i--;
  const roles: string[][] = [[]];
  let start = i >= 0 ? tokens[i]!.index + tokens[i]![0].length : before.length;
  let joinOr = false;
  for (; i >= 0; i--) {
    const t = tokens[i]!;
    const w = t[0].toLowerCase();
    const cur = roles[0]!;
    if (t[0] === ',' || AND.has(w)) {
      if (cur.length === 0) break;
      // "…, and the tenant signs": a comma or "and" before a lone role ends it unless a role precedes.
      const prev = tokens[i - 1];
      if (!prev || !isRoleWord(prev[0], lang) && !ARTICLE.has(prev[0].toLowerCase())) break;
      roles.unshift([]);
      continue;
    }
    if (OR.has(w)) {
      if (cur.length === 0) break;
      joinOr = true;
      cur.unshift('|');
      continue;
    }
    if (ARTICLE.has(w) || (lang !== 'de' && w === 'l')) { start = t.index; if (cur.length > 0) { start = t.index; continue; } break; }
    if (OF.has(w) && cur.length > 0 && cur.length < 4) { cur.unshift(t[0]); continue; }
    if (!isRoleWord(t[0], lang) || cur.filter((x) => x !== '|').length >= 3) break;
    cur.unshift(t[0]);
    start = t.index;
  }
  const clean = roles.filter((r) => r.length > 0 && !OF.has(r[0]!.toLowerCase()));
  return { roles: clean.length === 0 ? [] : toParties(clean, joinOr), start, used: 0 };
}

/** Reads forward after the verb: "firman el arrendador, el inquilino y el fiador con la fecha". */
function subjectAfter(after: string, lang: Language): Found {
  const tokens = [...after.matchAll(WORD)];
  const roles: string[][] = [[]];
  let used = 0;
  let joinOr = false;
  let optionalNext = false;
  const optional: boolean[] = [false];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const w = t[0].toLowerCase();
    const cur = roles[roles.length - 1]!;
    // "si lo hay", "if applicable", "gegebenenfalls": the next party is optional.
    const restFolded = fold(after.slice(t.index));
    const cond = /^(?:si lo hay|si corresponde|en su caso|if applicable|if any|if there is one|gegebenenfalls|falls vorhanden|le cas echeant|se applicabile|se presente|se houver|se aplicavel)\b/.exec(restFolded);
    if (cond) {
      optionalNext = true;
      if (cur.length > 0) optional[optional.length - 1] = true;
      const n = cond[0].split(/\s+/).length;
      i += n - 1;
      used = (tokens[i]!.index) + tokens[i]![0].length;
      continue;
    }
    if (t[0] === ',' || AND.has(w)) { if (cur.length > 0) { roles.push([]); optional.push(false); } continue; }
    if (OR.has(w) && cur.length > 0) { joinOr = true; cur.push('|'); continue; }
    if (ARTICLE.has(w) || MODAL.has(w)) { continue; }
    if (OF.has(w) && cur.length > 0 && i + 1 < tokens.length && isRoleWord(tokens[i + 1]![0], lang)) { cur.push(t[0]); continue; }
    if (!isRoleWord(t[0], lang) || cur.filter((x) => x !== '|').length >= 3) break;
    cur.push(t[0]);
    if (optionalNext) { optional[optional.length - 1] = true; optionalNext = false; }
    used = t.index + t[0].length;
  }
  const kept = roles.map((r, k) => ({ r, o: optional[k] ?? false })).filter((x) => x.r.length > 0 && x.r[x.r.length - 1] !== '|');
  const parties = toParties(kept.map((x) => x.r), joinOr);
  // toParties keeps one party per role list (or one for an "or" list): carry the optional marks.
  if (parties.length === kept.length) parties.forEach((p, k) => { if (kept[k]!.o) p.optional = true; });
  return { roles: parties, start: 0, used };
}

function toParties(roles: string[][], joinOr: boolean): Party[] {
  const names = roles.map((r) => r.join(' ').replace(/\s*\|\s*/g, ' | '));
  // "a parent or guardian", "el padre, la madre o el tutor": one signer, named by its alternatives.
  if (joinOr && names.length >= 1 && names[names.length - 1]!.includes('|')) {
    const all = names.flatMap((n) => n.split(' | '));
    return [{ role: orJoin(all), optional: false, dated: false }];
  }
  return names.map((n) => ({ role: n.includes('|') ? orJoin(n.split(' | ')) : n, optional: false, dated: false }));
}

function orJoin(alternatives: string[]): string {
  return alternatives.map((a) => a.trim()).filter(Boolean).join(' / ');
}

const NOT_ROLE = new Set(['name', 'email', 'e-mail', 'phone', 'date', 'address', 'number', 'it', 'them', 'this', 'form', 'here', 'below', 'bottom', 'end', 'page', 'nombre', 'fecha', 'nom', 'datum', 'nome', 'data', 'is', 'are', 'be', 'was', 'been', 'not', 'who', 'que', 'qui', 'wer', 'chi', 'quem', 'when', 'where', 'which', 'que', 'también', 'aussi', 'anche', 'também', 'auch', 'ebenfalls', 'only', 'solo', 'nur', 'apenas', 'if', 'si', 'se', 'wenn', 'falls', 'for', 'para', 'pour', 'per', 'bei', 'with', 'con', 'avec', 'mit', 'com', 'by', 'por', 'par', 'von', 'da', 'in', 'en', 'dans', 'im', 'em', 'at', 'on', 'to', 'from', 'then', 'dann', 'luego', 'puis', 'poi', 'depois', 'anyone', 'everyone', 'whether', 'ob', 'they', 'we', 'you', 'he', 'she', 'ils', 'elles', 'sie', 'er', 'loro', 'eles', 'elas']);

/** A word that can be part of a role's name: a noun, not a verb, a field word or a preposition. */
function isRoleWord(word: string, lang: Language): boolean {
  const w = word.toLowerCase();
  if (NOT_ROLE.has(w) || /^\d/.test(w)) return false;
  if (lang === 'en' && /(?:ed|ing|ly)$/.test(w) && !/^(?:insured|guaranteed)$/.test(w)) return false;
  if (lang === 'en' && /^(?:may|can|will|would|should|must|has|have|had|do|does|did|give|gives|write|writes|says|say|agree|agrees|want|wants)$/.test(w)) return false;
  // German nouns are capitalised; a lower-case word is a verb or a particle ("angeben", "dürfen").
  if (lang === 'de' && !/^\p{Lu}/u.test(word)) return false;
  return /^[\p{L}][\p{L}'’-]*$/u.test(word) && !/^(?:l|d)['’]$/i.test(w);
}

/** Possessive owners in the text that name parties: "the buyer's name", "nombre del comprador", "des Käufers". */
export function namedOwners(prompt: string, lang: Language): string[] {
  const out: string[] = [];
  const add = (raw: string): void => {
    let r = raw.trim();
    if (lang === 'de') r = r.replace(/(?<=er)s$/u, '').replace(/(?<=ent)en$/u, '');
    const key = fold(r);
    if (PARTY_NOUN.test(key) && !out.some((x) => fold(x) === key)) out.push(r);
  };
  const patterns = [
    /\b([\p{L}-]+(?:\s+party)?)['’]s\b/giu,
    /\b(?:del|de la|du|de l['’]|des|dell['’]|della|dello|do|da)\s*([\p{L}-]+)/giu,
    /\b(?:des|der)\s+(\p{Lu}[\p{L}-]+)/gu,
    /\b(?:between|entre|zwischen|tra|fra)\s+(?:the\s+|la\s+|el\s+|le\s+|l['’]|a\s+|o\s+|il\s+|dem\s+|der\s+)?([\p{L}-]+)\s+(?:and|y|et|und|e)\s+(?:the\s+|la\s+|el\s+|le\s+|l['’]|a\s+|o\s+|il\s+|dem\s+|der\s+)?([\p{L}-]+)/giu,
  ];
  const hits: Array<{ at: number; name: string }> = [];
  for (const re of patterns) for (const m of prompt.matchAll(re)) for (const g of m.slice(1)) if (g) hits.push({ at: m.index + m[0].indexOf(g), name: g });
  for (const h of hits.sort((a, b) => a.at - b.at)) add(h.name);
  return out;
}

const PARTY_NOUN = /^(?:buyer|seller|landlord|tenant|lender|borrower|employer|employee|contractor|client|customer|company|consultant|disclosing party|receiving party|licensor|licensee|lessor|lessee|vendor|supplier|owner|renter|guarantor|provider|comprador|vendedor|arrendador|arrendatario|inquilino|propietario|empresa|consultor|cliente|proveedor|prestador|acheteur|vendeur|bailleur|locataire|proprietaire|societe|prestataire|client|kaufer|verkaufer|vermieter|mieter|auftraggeber|auftragnehmer|arbeitgeber|arbeitnehmer|acquirente|venditore|locatore|conduttore|societa|consulente|fornitore|committente|senhorio|fiador|garante|avalista|caution|burge)$/;
