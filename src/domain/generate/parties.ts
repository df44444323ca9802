// Who signs: signing clauses in the six languages, as people write them. "The tenant, landlord and
// guarantor all sign", "firman el arrendador, el inquilino y el fiador", "der Bewerber unterschreibt, der
// Bürge gegebenenfalls auch", "the line manager approves it by signing", "a parent or guardian signs for
// minors". A clause gives its parties (in the order named, optional when a condition goes with them)
// and leaves the rest of the sentence to be read as fields.
import { fold, INITIALS, OPTIONAL, typeOf } from './lexicon.js';
import { namesAField } from './segment.js';
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
  en: /\b(?:signatures\s*:|(?:approves?|validates?|confirms?)\s+(?:(?:it|this|them|the \w+)\s+)?by\s+signing|countersigns?|signs?(?![-\s](?:up|in)\b)(?:\s+off)?|signing|signed\s+by|signatures\s+of|(?:approved|requested|submitted|reviewed|authori[sz]ed|verified|witnessed)\s+by)\b/giu,
  es: /(?<![\p{L}])(?:firmad[oa]s?\s+por|firmas\s*:|firmen?(?=\s+(?:el|la|los|las|un|una|su)\b)|(?:lo |la )?aprueba\s+con\s+su\s+firma|(?:lo |la )?(?:aprueba|valida|autoriza)\s+firmando|(?:lo |la )?refrendan?|firman|firmas\s+de|firma(?=\s+(?:el|la|los|las|un|una|su|también|y)\b|\s*[.;]|\s*$)|firmando|firmar|(?:aprobado|autorizado|revisado|solicitado)\s+por)(?![\p{L}])/giu,
  fr: /(?<![\p{L}])(?:sign[ée]e?s?\s+par|signatures\s*:|valide\s+en\s+signant|contresignent|contresigne|signent|signe|signer|signant|signatures\s+(?:du|de|des)|(?:approuvé|validé|vérifié|autorisé|visé)\s+par)(?![\p{L}])/giu,
  de: /(?<![\p{L}])(?:unterschriften\s*:|unterschrieben(?:\s+(?:wird|werden))?(?=\s+(?:von|vom)\s)|(?:genehmigt|bestätigt|zeichnet)(?=\s+(?:(?:der|die|das)\s+\p{Lu}[\p{L}-]*\s+)?mit\s+(?:seiner\s+|ihrer\s+)?Unterschrift)|genehmigt\s+mit\s+(?:seiner\s+|ihrer\s+)?Unterschrift|gegenzeichnet|gegenzeichnen|unterschreibt|unterschreiben|unterzeichnet|unterzeichnen|Unterschriften\s+(?:von|der|des))(?![\p{L}])/giu,
  it: /(?<![\p{L}])(?:firmat[oai]\s+da|firme\s*:|firmino|approva\s+firmando|controfirmano|controfirma|(?:approvato|autorizzato|verificato|vistato)\s+da|firmano|firme\s+(?:di|del|della|dei)|firma(?=\s+(?:il|lo|la|l['’]|un|una|anche|e|su)\b|\s*[.;]|\s*$)|firmando|firmare)(?![\p{L}])/giu,
  pt: /(?<![\p{L}])(?:assinad[oa]s?\s+(?:pel[oa]s?|por)|assinaturas\s*:|assinem|aprova\s+assinando|(?:aprovado|autorizado|verificado|visado)\s+por|assinam|assina|assinando|assinar|assinaturas\s+(?:do|da|dos|das|de))(?![\p{L}])/giu,
};
/** Verbs whose subject follows them ("signed by the client", "Unterschriften von Mieter und Vermieter"). */
const SUBJECT_AFTER = /^(?:firmad[oa]s?\s+por|sign[ée]e?s?\s+par|firmat[oai]\s+da|assinad[oa]s?\s|(?:signatures|firmas|firme|unterschriften|assinaturas)\s*:|unterschrieben|signed\s+by|signatures|(?:approved|requested|submitted|reviewed|authori[sz]ed|verified|witnessed)\s+by|firmas|firme|signatures|unterschriften|assinaturas|aprobado|autorizado|revisado|solicitado|approuvé|validé|vérifié|autorisé|visé|approvato|autorizzato|verificato|vistato|aprovado|verificado|visado)/iu;

const ARTICLE = new Set(['the', 'a', 'an', 'el', 'la', 'los', 'las', 'un', 'una', 'le', 'les', 'une', 'l', 'der', 'die', 'das', 'den', 'dem', 'ein', 'eine', 'einen', 'einer', 'eines', 'einem', 'il', 'lo', 'gli', 'i', 'o', 'os', 'as', 'um', 'uma', 'su', 'sus', 'son', 'sa', 'ses', 'their', 'his', 'her', 'its', 'any', 'every', 'each', 'seu', 'sua', 'suo']);
const AND = new Set(['and', '&', 'y', 'e', 'et', 'und', 'ed']);
const OR = new Set(['or', 'o', 'ou', 'oder', 'u']);
/** Words that may stand between a subject and its verb: "tenant and landlord both sign", "must sign". */
const MODAL = new Set(['sollen', 'sollten', 'soll', 'tun', 'zuerst', 'zuletzt', 'danach', 'anschließend', 'first', 'finally', 'lastly', 'ensuite', 'después', 'dopo', 'é', 'è', 'es', 'est', 'ist', 'is', 'puis', 'additionally', 'zusätzlich', 'además', 'inoltre', 'adicionalmente', 'both', 'then', 'also', 'all', 'each', 'must', 'will', 'should', 'shall', 'can', 'may', 'to', 'have', 'has', 'need', 'needs', 'too', 'dann', 'auch', 'ebenfalls', 'beide', 'puis', 'aussi', 'tous', 'toutes', 'luego', 'también', 'ambos', 'ambas', 'después', 'poi', 'anche', 'entrambi', 'entrambe', 'depois', 'também', 'deben', 'doivent', 'müssen', 'devono', 'devem', 'debe', 'doit', 'muss', 'deve']);
/** Inside a role: "responsable de recursos humanos", "head of finance". */
const OF = new Set(['of', 'de', 'del', 'du', 'des', 'di', 'della', 'do', 'da', 'der']);
const BOTH = /^(?:both(?: parties)?|deux parties|parti|partes|parteien|all parties|each party|the parties|parties|ambas partes|las dos partes|ambas|les deux parties|beide parteien|beide|entrambe le parti|le parti|ambas as partes|as partes|ambos)$/i;
const DATED = /^\s*(?:and|y|et|und|e)\s+(?:dates?|dated|fecha|fechan|datent|date|datiert|datieren|datano|data|datam)\b|\b(?:con la fecha|with the date|avec la date|mit datum|con la data|con data|com a data)\b|\b(?:y|e|et|und|and)\s+(?:poner|pone|ponen|indicar|mettre|mettent|met|mettere|mette|mettono|colocar|coloca|colocam|p[oô]r|p[oõ]e|p[oõ]em|add|adds|write|writes)\s+(?:la|a|le|die|the|das)?\s*(?:fecha|date|data|datum)\b/i;
const UNDER_AGE = /\b(?:under \d+|minors?|menor(?:es)?|mineurs?|minderjahrig\w*|unter \d+|minorenni|minori|moins de \d+|menos de \d+)\b/;
const CONDITION = new RegExp(`${OPTIONAL.source}|${UNDER_AGE.source}|\\b(?:if there is one|s'il y en a un|si lo hay|si hay|se houver|se c'e|falls es|if there is)\\b`);

// A no-break space belongs to the word: it glues "health and safety" into one (segment.ts, glue).
const ALSO = /^(?:also|auch|aussi|tambien|anche|tambem)\b|\b(?:too|also|as well|auch|ebenfalls|aussi|egalement|tambien|anche|pure|tambem)$/;
/** "… and at the end the tenant signs": the adverb is not part of the subject. */
const THEN_END = /(?:\b(?:at the end|in the end|finally|al final|finalmente|por ultimo|por último|a la fin|à la fin|enfin|pour finir|am ende|zum schluss|schließlich|schliesslich|alla fine|infine|no final|por fim|no fim)\s*,?\s*)$/iu;
/** "both parents", "les deux parents", "entrambi i genitori": two signers of that role. */
/** "Both parties" are the parties named elsewhere, not two signers called "party". */
const PARTIES = /^(?:part(?:y|ies|ie|ies|es|eien|i|e)|seiten)$/i;
export const BOTH_OF = /^(?:both|ambos|ambas|los dos|las dos|deux|beide|entrambi|entrambe|tutti e due|os dois|as duas)$/i;

/** The one who writes the description signs ("signed by me", "assinam eu e o pai", "I countersign as the trainer"). */
export const FIRST_PERSON = '\u2066me';
const ME = /^(?:i|me|myself|we|us|moi|je|nous|yo|m[ií]|nosotros|nosotras|ich|mich|mir|wir|uns|io|noi|eu|mim|n[oó]s)$/i;
/** "… as the trainer", "als Vermieter", "en tant que bailleur": the role the signer signs in. */
const AS = /^\s*(?:as|als|comme|como|come|en tant que|in qualit[aà] di|na qualidade de)\s+(?!well\b|bien\b)/i;
const THEN = /^(?:then|puis|ensuite|dann|danach|zuletzt|anschließend|luego|después|despues|poi|depois)$/i;
const BY = new Set(['by', 'par', 'por', 'von', 'vom', 'da', 'dal', 'dalla', 'dai', 'pelo', 'pela', 'pelos', 'pelas', 'from']);
const EACH_WORD = /^(?:each|every|cada|chaque|tous|toutes|todas|todos|ogni|tutte|tutti|jede[nrs]?|alle)$/;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’\u00a0-]*|[,;]/gu;

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
    // "I sign as landlord", "je signe en tant que bailleur": the role named after the verb.
    if (found.length === 1 && found[0]!.role === FIRST_PERSON && AS.test(after)) {
      const as = subjectAfter(after.replace(AS, ''), lang);
      if (as.roles.length > 0) {
        found = as.roles;
        afterUsed = after.length - after.replace(AS, '').length + as.used;
      }
    }
    // "… and both sign": the parties named elsewhere.
    if (found.length === 0 && /\b(?:both|beide|ambos|ambas|les deux|tous les deux|entrambi|entrambe)\s*$/i.test(before)) both = true;
    if (found.length === 0) {
      const fwd = subjectAfter(after, lang);
      found = fwd.roles;
      afterUsed = fwd.used;
    }
    // "…, the co-signer too if there is one", "…, der Bürge gegebenenfalls auch".
    const tail = after.slice(afterUsed);
    const more = /^\s*,?\s*(?:(?:and|y|e|et|und|ainsi que|as well as|así como|sowie|così come|assim como)\s*)?,?\s*(.{0,50}?)\s*[.!]?\s*$/iu.exec(tail);
    const conditioned = !!more?.[1] && CONDITION.test(fold(more[1]));
    // "the parents sign and the head teacher too": one more party, not a condition.
    const also = i === hits.length - 1 && !!more?.[1] && ALSO.test(fold(more[1]).trim());
    const extra = more && found.length > 0 && more[1] && (conditioned || also) ? subjectAfter(more[1], lang).roles : [];
    const optionalAll = extra.length === 0 && CONDITION.test(fold(tail));
    const dated = DATED.test(tail);
    const lead = sentence.slice(consumedTo, subjectStart);
    // "Only for minors: a parent signs", "Bei Minderjährigen unterschreibt ein Erziehungsberechtigter".
    const conditionedBefore = CONDITION.test(fold(lead)) && (/^\s*(?:only |nur |solo |seulement |uniquement |apenas )?(?:if|for|bei|pour|para|per|se|si|falls|wenn|when|für)\b/i.test(fold(lead)) || UNDER_AGE.test(fold(lead)));
    for (const p of found) {
      p.dated = dated;
      if (optionalAll || conditionedBefore) {
        p.optional = true;
        p.condition ??= conditionText(optionalAll ? tail : lead);
      }
    }
    for (const p of extra) {
      p.dated = dated;
      if (!conditioned) continue;
      p.optional = true;
      p.condition ??= conditionText(more![1]!);
    }
    for (const p of [...found, ...extra]) {
      if (BOTH.test(p.role)) both = true;
      else parties.push(p);
    }
    if (both) bothDated ||= dated;
    const cleanLead = lead.replace(/^\s*,?\s*(?:and|y|et|und|e)\s+(?:dates?|dated|fecha|datent|date|datiert|data|datam)(?:\s+(?:it|them|lo|la|le|es))?\b/i, '');
    // "It has to be signed by …", "Lo tienen que firmar …", "À signer par …": a lead that names no field is the clause's own words.
    const leadWords = cleanLead.trim().split(/\s+/).filter(Boolean);
    const bareLead = leadWords.length > 0 && leadWords.length <= 4 && !namesAField(fold(cleanLead.trim().replace(/^[,;]\s*/, '')));
    if (!conditionedBefore && cleanLead.trim() && !bareLead) keep.push(cleanLead);
    // What follows the last verb is read on only when it names initials ("and an agent initials").
    if (i === hits.length - 1 && INITIALS.test(fold(tail))) keep.push(tail);
    consumedTo = start + hit[0].length + afterUsed;
  }
  const rest = keep.join(', ').replace(/(?:\s*(?:,|\b(?:and|then|y|e|et|und|dann|puis|luego|poi|depois|both|beide|ambas|ambos|entrambe|all|tous|also|too|anche|también|aussi|auch|também)(?![\p{L}]))\s*)+$/iu, '').trim();
  return { parties, both, bothDated, rest };
}

function conditionText(text: string): string {
  // "se for menor, o encarregado também" → "se for menor".
  const clause = /^\s*,?\s*((?:if|si|se|wenn|falls|when|quand|cuando)\b[^,]*),/i.exec(text);
  if (clause) return clause[1]!.trim().slice(0, 120);
  return text.replace(/^[\s,;:]+|[\s,;:.]+$/g, '').replace(/^(?:and|y|e|et|und|too|also|auch)\s+/i, '').slice(0, 120);
}

interface Found { roles: Party[]; start: number; used: number }

const isAnd = (w: string, lang: Language): boolean => AND.has(w) && !(lang === 'en' && w === 'e');
const isOr = (w: string, lang: Language): boolean => OR.has(w) && !(lang === 'pt' && w === 'o') && !(lang === 'en' && (w === 'o' || w === 'u'));
const isArticle = (w: string, lang: Language): boolean => (ARTICLE.has(w) && !(lang !== 'pt' && (w === 'o' || w === 'os' || w === 'as')) && !(lang !== 'pt' && lang !== 'en' && w === 'a')) || (lang !== 'de' && lang !== 'en' && /^(?:l|d|un|dell|all)['’]$/.test(w));
/** Prepositions: a noun after one is not a subject ("Bei Minderjährigen unterschreibt …", "for minors"). */
const PREP = new Set(['for', 'with', 'by', 'from', 'bei', 'für', 'fur', 'mit', 'von', 'pour', 'avec', 'par', 'para', 'con', 'por', 'per', 'com', 'in', 'en', 'em', 'nach', 'after', 'después', 'après', 'dopo', 'após']);

interface Role { words: string[]; start: number }

/** Walks back from the verb over "the tenant, landlord and guarantor (all)". */
function subjectBefore(beforeText: string, lang: Language): Found {
  const before = beforeText.replace(THEN_END, '');
  const tokens = [...before.matchAll(WORD)];
  let i = tokens.length - 1;
  while (i >= 0 && MODAL.has(tokens[i]![0].toLowerCase())) i--;
  const end = i >= 0 ? tokens[i]!.index + tokens[i]![0].length : before.length;
  const roles: Role[] = [{ words: [], start: end }];
  let joinOr = false;
  let stopper = '';
  for (; i >= 0; i--) {
    const t = tokens[i]!;
    const w = t[0].toLowerCase();
    const cur = roles[0]!;
    if (t[0] === ',' || isAnd(w, lang)) {
      if (cur.words.length === 0) { stopper = w; break; }
      roles.unshift({ words: [], start: t.index });
      continue;
    }
    if (cur.words.length === 0 && ME.test(w) && !(lang !== 'en' && w === 'me')) {
      cur.words.unshift(FIRST_PERSON);
      cur.start = t.index;
      continue;
    }
    if (isOr(w, lang)) {
      if (cur.words.length === 0) break;
      joinOr = true;
      cur.words.unshift('|');
      continue;
    }
    if (isArticle(w, lang)) {
      if (cur.words.length === 0) break;
      cur.start = t.index;
      continue;
    }
    if (OF.has(w) && cur.words.length > 0 && cur.words.length < 4) { cur.words.unshift(t[0]); continue; }
    // "3 witnesses", "two witnesses": the count stays with the role (one signer each).
    if (cur.words.length > 0 && (/^(?:\d{1,2}|two|three|four|five|dos|tres|deux|trois|zwei|drei|due|tre|dois|duas|três)$/i.test(w) || (BOTH_OF.test(w) && !PARTIES.test(cur.words[0]!)))) {
      cur.words.unshift(BOTH_OF.test(w) && !PARTIES.test(cur.words[0]!) ? '2' : t[0]);
      cur.start = t.index;
      continue;
    }
    if (!isRoleWord(t[0], lang) || cur.words.filter((x) => x !== '|' && !OF.has(x.toLowerCase())).length >= 3) { stopper = w; break; }
    cur.words.unshift(t[0]);
    cur.start = t.index;
  }
  // The role next to the verb may be any noun; those further out must name a party ("their emergency
  // contact and the member sign" is one signer).
  // Walking out from the verb, each further role must be headed by a party noun: "mit dem Namen und der
  // Anschrift des Käufers und Käufer und Verkäufer unterschreiben" stops before "Anschrift des Käufers".
  let kept = roles.filter((r) => r.words.length > 0);
  let from = kept.length - 1;
  while (from > 0 && headedByParty(kept[from - 1]!.words, lang)) from--;
  kept = kept.slice(from);
  kept = kept.map((r) => ({ ...r, words: dropModals(r.words) })).filter((r) => r.words.length > 0 && !OF.has(r.words[0]!.toLowerCase()) && r.words[r.words.length - 1] !== '|');
  if (kept.length === 0 || (kept.length === 1 && PREP.has(stopper) && roles.length === 1)) return { roles: [], start: end, used: 0 };
  return { roles: toParties(kept.map((r) => r.words), joinOr), start: kept[0]!.start, used: 0 };
}

const PERSON_ENDING = /(?:ant|ent|er|or|ee|ist|ian|eur|euse|aire|ario|aria|ore|ice|eiro|eira|ente|ante|erin|ler|ner)$/;
/** The role's head (its last word in English, its first elsewhere; any of "a | b") names a party. */
function headedByParty(words: string[], lang: Language): boolean {
  return words.join(' ').split('|').some((alt) => {
    const w = alt.trim().split(/\s+/).filter((x) => x && !/^(?:\d+|two|three)$/i.test(x));
    const head = lang === 'en' ? w[w.length - 1] : w[0];
    // "subtenant", "co-borrower", "Verkäuferin": a person's ending is enough.
    return head !== undefined && (ROLE_NOUN.test(stem(head)) || (PERSON_ENDING.test(fold(head)) && typeOf(fold(alt)) === 'text'));
  });
}

/** Words of no party: pronouns, determiners, adverbs ("as well", "al lado de cada", "je voudrais faire", "os dois tem q assinar"). */
const CLOSED = /^(?:as|well|too|also|then|that|this|which|who|it|each|every|al|au|aux|je|tu|il|on|nous|vous|yo|tú|él|ella|nosotros|ich|du|er|wir|ihr|io|lui|lei|noi|voi|eu|ele|ela|nós|vc|você|cada|chaque|jede[nrs]?|ogni|que|qui|was|wer|che|chi|tem|tiene|hat|a|ao|à|y|e|et|und|o|ou|oder|all|tutti|tutte|todos|todas|tous|toutes|alle|everyone|online|chacun|chacune|cual|qual|quale|alguna?|alguno|algún|alguma|qualche|quien|quem)$/i;

/**
 * Whether a cleaned role names a party rather than a fragment of a sentence ("As well", "Al lado de
 * cada", "Je voudrais faire", "Tem"): its first word (every word in English) is no pronoun, determiner
 * or adverb, and one word alone is a party noun, an acronym ("IT") or four letters or more.
 */
export function namesParty(role: string, lang: Language): boolean {
  return role.split(/\s*\/\s*/).every((alt) => {
    const words = alt.split(/\s+/).filter((x) => x && !/^\d+$/.test(x));
    if (words.length === 0) return false;
    // "IT", "HR": an acronym is a department, whatever word it spells.
    const closed = (w: string): boolean => CLOSED.test(w) && !/^\p{Lu}{2,}$/u.test(w);
    if (closed(words[0]!) || (words[0]!.length <= 2 && !/^\p{Lu}{2}$/u.test(words[0]!))) return false;
    if (lang === 'en' && words.some(closed)) return false;
    // An adverb ("elettronicamente"), a gerund ("confirmando") or a verb of "we" ("vorremmo") is no party.
    const verbish = { en: /^$/, de: /^$/, fr: /\p{L}{3}ons$/u, es: /(?:mente|ando|iendo|amos|emos|imos)$/, it: /(?:mente|ando|endo|emmo|iamo)$/, pt: /(?:mente|ando|endo|indo|amos|emos|imos)$/ }[lang];
    if (verbish.test(fold(words[0]!)) && !ROLE_NOUN.test(stem(words[0]!))) return false;
    // Three words or more that name no party are a clause ("Vengono senza genitori", "Directo da visto bueno").
    const content = words.filter((w) => !OF.has(w.toLowerCase()));
    const party = (w: string): boolean => ROLE_NOUN.test(stem(w)) || ROLE_NOUN.test(stem(w).replace(/i$/, 'e')) || (fold(w).length >= 6 && PERSON_ENDING.test(fold(w))) || /^(?:person|persona|personne|pessoa|personen)$/i.test(fold(w)) || /^\p{Lu}{2,}$/u.test(w);
    if (content.length >= 3 && !content.some(party)) return false;
    return words.length > 1 || words[0]!.length >= 4 || ROLE_NOUN.test(stem(words[0]!)) || /^\p{Lu}{2,}$/u.test(words[0]!);
  });
}

function dropModals(words: string[]): string[] {
  let k = 0;
  while (k < words.length - 1 && MODAL.has(words[k]!.toLowerCase())) k++;
  return words.slice(k);
}

const stem = (word: string): string => fold(word).replace(/['’]s$/, '').replace(/(?<=[a-z]{4})(?:s|n|en)$/, '');

/** Reads forward after the verb: "firman el arrendador, el inquilino y el fiador con la fecha". */
function subjectAfter(after: string, lang: Language): Found {
  const tokens = [...after.matchAll(WORD)];
  const roles: string[][] = [[]];
  const optional: boolean[] = [false];
  let used = 0;
  let joinOr = false;
  let optionalNext = false;
  let afterAnd = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const w = t[0].toLowerCase();
    const cur = roles[roles.length - 1]!;
    // "si lo hay", "if applicable", "gegebenenfalls": the next party is optional.
    const cond = /^(?:s['’]il y en a (?:un|une)|s['’]il y a lieu|si lo hay|si los hay|si corresponde|en su caso|if applicable|if any|if there is one|gegebenenfalls|falls vorhanden|le cas echeant|se applicabile|se presente|se houver|se aplicavel|(?:if|si|se|wenn|falls|when|quand|cuando)\s[^,.;]{1,30},|(?:bei|for|pour les|para|per i|fur|für)\s+(?:\S+\s+){0,2}?(?:minderjahrigen|minors?|mineurs|menores|minori|minorenni|under \d+|unter \d+|moins de \d+ ans)\b,?)/.exec(fold(after.slice(t.index)));
    if (cond) {
      optionalNext = true;
      if (cur.length > 0) optional[optional.length - 1] = true;
      i += cond[0].split(/\s+/).length - 1;
      used = tokens[i]!.index + tokens[i]![0].length;
      continue;
    }
    // "signed by the tenant", "signé par le locataire", "assinado pelo senhorio": the subject follows.
    if (cur.length === 0 && (roles.length === 1 || (afterAnd && /^(?:by|par|por|von|da|pelo|pela)$/.test(w))) && BY.has(w)) continue;
    // "… and I countersign as the trainer": the role after "as"; "they sign as well" names none.
    if (cur.length === 0 && /^(?:as|als|comme)$/.test(w)) {
      if (/^(?:well|bien)$/i.test(tokens[i + 1]?.[0] ?? '')) break;
      continue;
    }
    if (cur.length === 0 && ME.test(w) && !(lang !== 'en' && w === 'me') && !(lang === 'en' && w === 'i' && i + 1 < tokens.length && isRoleWord(tokens[i + 1]![0], lang))) {
      cur.push(FIRST_PERSON);
      used = t.index + t[0].length;
      continue;
    }
    // "der Beschäftigte, dann die Führungskraft", "le salarié puis le manager": "then" joins parties as "and" does.
    if (cur.length === 0 && THEN.test(w) && roles.length > 1) continue;
    if (t[0] === ',' || isAnd(w, lang) || (cur.length > 0 && THEN.test(w))) { if (cur.length > 0) { roles.push([]); optional.push(false); } afterAnd = t[0] !== ','; continue; }
    // "yo como coordinadora", "ich als Vermieter": the role the writer signs in.
    if (cur.length === 1 && cur[0] === FIRST_PERSON && /^(?:as|als|comme|como|come)$/.test(w)) { cur.length = 0; continue; }
    // "die direkte Führungskraft": a German adjective before its noun.
    if (lang === 'de' && /^\p{Ll}+(?:e|en|er|es)$/u.test(t[0]) && !/^(?:zweite|dritte|weitere|andere)/.test(w) && /^\p{Lu}/u.test(tokens[i + 1]?.[0] ?? '') && !NOT_ROLE.has(w) && !MODAL.has(w)) continue;
    // "… y el vendedor y pone la fecha": after "and", a lower-case word that is no party is a verb.
    const bareWord = t[0].replace(/^(?:l|d|dell|all|un)['’]/i, '');
    if (afterAnd && cur.length === 0 && lang !== 'de' && bareWord === t[0] && !isArticle(w, lang) && !OF.has(w) && /^\p{Ll}/u.test(t[0]) && !ROLE_NOUN.test(stem(t[0])) && !BOTH_OF.test(w) && !MODAL.has(w)) break;
    afterAnd = false;
    if (isOr(w, lang) && cur.length > 0) { joinOr = true; cur.push('|'); continue; }
    // "firmano entrambi i genitori", "signent les deux parents": a count the role keeps.
    if (cur.length === 0 && ((BOTH_OF.test(w) && !tokens.slice(i + 1, i + 3).some((x) => PARTIES.test(x[0]))) || /^(?:two|dos|deux|zwei|due|dois|duas|three|tres|trois|drei|tre|três)$/.test(w)) && tokens.slice(i + 1, i + 3).some((x) => !isArticle(x[0].toLowerCase(), lang) && isRoleWord(x[0], lang))) {
      cur.push(BOTH_OF.test(w) ? '2' : t[0]);
      continue;
    }
    if (isArticle(w, lang) || (MODAL.has(w) && !NOT_ROLE.has(w))) continue;
    if (OF.has(w) && cur.length > 0 && i + 1 < tokens.length && isRoleWord(tokens[i + 1]![0], lang)) { cur.push(t[0]); continue; }
    // "… e l'operatore mette la sigla": that person initials, they do not sign.
    if (INITIALS.test(fold(after.slice(t.index)).split(/[.;]/)[0]!.split(/\s+/).slice(0, 5).join(' '))) break;
    if (!isRoleWord(t[0], lang) || cur.filter((x) => x !== '|').length >= 3) break;
    // A second lower-case word after a role ends it ("… y la madre con la fecha"), unless it qualifies the
    // role's one noun: "responsable directo", "chefia direta", "recursos humanos", "ufficio amministrazione".
    if (cur.length > 0 && cur[cur.length - 1] !== '|' && !OF.has(cur[cur.length - 1]!.toLowerCase()) && lang !== 'de' && !ROLE_NOUN.test(stem(t[0])) && /^\p{Ll}/u.test(t[0]) && roles.length > 1
      && (cur.length !== 1 || EACH_WORD.test(w) || lang === 'en')) break;
    cur.push(t[0]);
    if (optionalNext) { optional[optional.length - 1] = true; optionalNext = false; }
    used = t.index + t[0].length;
  }
  const kept = roles.map((r, k) => ({ r, o: optional[k] ?? false })).filter((x) => x.r.length > 0 && x.r[x.r.length - 1] !== '|');
  const parties = toParties(kept.map((x) => x.r), joinOr);
  if (parties.length === kept.length) parties.forEach((p, k) => { if (kept[k]!.o) p.optional = true; });
  return { roles: parties, start: 0, used };
}

const GUARDIAN = /^(?:parents?|guardians?|legal guardian|tutor|tutora|tutore|tuteur|tutrice|representant legal|representante legal|erziehungsberechtigte[rn]?|eltern(?:teil)?|genitori?|encarregado(?: de educacao)?|responsavel|padres?|madre|pai|mae|pere|mere|vater|mutter)$/;

function toParties(roles: string[][], joinOr: boolean): Party[] {
  const names = roles.map((r) => r.join(' ').replace(/\s*\|\s*/g, ' | '));
  if (joinOr && names.length >= 1 && names[names.length - 1]!.includes('|')) {
    const all = names.flatMap((n) => n.split(' | ')).map((x) => x.trim()).filter(Boolean);
    const bare = (x: string): string => fold(x).replace(/^(?:the|a|an|el|la|su|le|son|sa|der|die|il|o|a|seu|sua|un|una|une|ein|eine|um|uma|their|his|her)\s+/, '');
    // "the patient or their guardian": the patient signs, a guardian instead only when needed.
    const guardians = all.filter((x) => GUARDIAN.test(bare(x)));
    if (guardians.length > 0 && guardians.length < all.length) {
      return [
        { role: orJoin(all.filter((x) => !guardians.includes(x))), optional: false, dated: false },
        { role: orJoin(guardians.map((g) => g.replace(/^(?:their|his|her|su|son|sa|ihr|seine?|il suo|la sua|o seu|a sua)\s+/i, ''))), optional: true, dated: false, condition: undefined },
      ];
    }
    return [{ role: orJoin(all), optional: false, dated: false }];
  }
  return names.map((n) => ({ role: n.includes('|') ? orJoin(n.split(' | ')) : n, optional: false, dated: false }));
}

function orJoin(alternatives: string[]): string {
  return alternatives.map((a) => a.trim()).filter(Boolean).join(' / ');
}

/** Nouns that name a party, in the six languages (folded, without a plural or genitive ending). */
const ROLE_NOUN = /^(?:tenant|landlord|guarantor|buyer|seller|lender|borrower|employee|employer|manager|supervisor|member|staff|parent|guardian|witnes|applicant|co-applicant|co-signer|cosigner|contractor|client|customer|company|consultant|photographer|model|patient|doctor|dentist|physician|nurse|student|teacher|participant|volunteer|driver|renter|owner|agent|inspector|director|reporter|representative|officer|notary|spouse|partner|party|partie|trainer|trainee|referee|candidate|claimant|approver|finance|administrator|coordinator|instructor|coach|vendor|supplier|licensor|licensee|lessor|lessee|disclosing|receiving|inquilino|arrendador|arrendatario|fiador|avalista|comprador|vendedor|prestamista|empleado|empleador|responsable|jefe|socio|miembro|padre|madre|tutor|testigo|solicitante|titular|contratista|cliente|empresa|consultor|fotografo|modelo|paciente|medico|estudiante|alumno|participante|voluntario|conductor|propietario|agente|trabajador|asistente|proveedor|locataire|bailleur|caution|garant|acheteur|vendeur|preteur|emprunteur|co-emprunteur|salarie|employeur|superviseur|adherent|membre|tuteur|temoin|candidat|prestataire|societe|photographe|modele|medecin|eleve|benevole|conducteur|proprietaire|inspecteur|directeur|declarant|mieter|vermieter|burge|kaufer|verkaufer|darlehensgeber|darlehensnehmer|mitarbeiter|arbeitgeber|arbeitnehmer|vorgesetzte|vorgesetzter|personalabteilung|mitglied|eltern|elternteil|erziehungsberechtigte|erziehungsberechtigter|zeuge|antragsteller|bewerber|auftragnehmer|auftraggeber|kunde|firma|berater|fotograf|arzt|schuler|teilnehmer|fahrer|eigentumer|prufer|standortleiter|leiter|meldende|entleiher|locatore|conduttore|garante|acquirente|venditore|dipendente|datore|responsabile|supervisore|membro|genitore|tutore|testimone|richiedente|fornitore|societa|consulente|modello|paziente|studente|partecipante|conducente|ispettore|direttore|segnalante|utente|operatore|senhorio|funcionario|empregador|responsavel|gestor|pai|mae|encarregado|testemunha|requerente|prestador|aluno|condutor|inspetor|diretor|utilizador)$/;

const NOT_ROLE = new Set(['à', 'name', 'email', 'e-mail', 'phone', 'date', 'address', 'number', 'it', 'them', 'this', 'form', 'here', 'below', 'bottom', 'end', 'page', 'nombre', 'fecha', 'nom', 'datum', 'nome', 'data', 'is', 'are', 'be', 'was', 'been', 'not', 'who', 'que', 'qui', 'wer', 'chi', 'quem', 'when', 'where', 'which', 'que', 'only', 'solo', 'nur', 'apenas', 'if', 'si', 'se', 'wenn', 'falls', 'for', 'para', 'pour', 'per', 'bei', 'with', 'con', 'avec', 'mit', 'com', 'by', 'por', 'par', 'von', 'da', 'in', 'en', 'dans', 'im', 'em', 'at', 'on', 'to', 'from', 'then', 'dann', 'luego', 'puis', 'poi', 'depois', 'anyone', 'everyone', 'whether', 'ob', 'they', 'we', 'you', 'he', 'she', 'ils', 'elles', 'sie', 'er', 'loro', 'eles', 'elas']);

/** A word that can be part of a role's name: a noun, not a verb, a field word or a preposition. */
function isRoleWord(word: string, lang: Language): boolean {
  const w = word.toLowerCase();
  if (NOT_ROLE.has(w) || MODAL.has(w) || /^\d/.test(w) || OPTIONAL.test(fold(w))) return false;
  if (lang === 'en' && /(?:ed|ing|ly)$/.test(w) && !/^(?:insured|guaranteed)$/.test(w)) return false;
  if (lang === 'en' && /^(?:may|can|will|would|should|must|has|have|had|do|does|did|give|gives|write|writes|says|say|agree|agrees|want|wants)$/.test(w)) return false;
  // German nouns are capitalised; a lower-case word is a verb or a particle ("angeben", "dürfen").
  // Dictated German is all lower case: a word that names a party ("mitglied", "bauleiter") is still one.
  if (lang === 'de' && !/^\p{Lu}/u.test(word) && !/^(?:zweite[rnms]?|dritte[rnms]?|weitere[rnms]?|andere[rnms]?)$/.test(w) && !ROLE_NOUN.test(stem(word)) && !/(?:leiter|leiterin|fuhrer|nehmer|geber|gegner)$/.test(fold(w))) return false;
  if (/^(?:email|phone)$/.test(typeOf(fold(w)))) return false;
  return /^[\p{L}][\p{L}'’\u00a0-]*$/u.test(word) && !/^(?:l|d)['’]$/i.test(w);
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
  ];
  const between = /\b(?:between|entre|zwischen|tra|fra)\s+(?:(?:the|our|your|my|their|la|el|le|a|o|il|dem|der|nuestra|nuestro|notre|unserem|unserer|la nostra|il nostro|a nossa|o nosso)\s+|l['’])?([\p{L}-]+)\s+(?:and|y|et|und|e)\s+(?:(?:the|a|an|la|el|le|o|il|dem|der|un|una|une|einem|einer|um|uma)\s+|l['’])?([\p{L}-]+)/iu.exec(prompt);
  // "between our company and the freelancer" names the parties whatever the nouns.
  if (between) return [between[1]!, between[2]!];
  const hits: Array<{ at: number; name: string }> = [];
  for (const re of patterns) for (const m of prompt.matchAll(re)) for (const g of m.slice(1)) if (g) hits.push({ at: m.index + m[0].indexOf(g), name: g });
  for (const h of hits.sort((a, b) => a.at - b.at)) add(h.name);
  return out;
}

const PARTY_NOUN = /^(?:buyer|seller|landlord|tenant|lender|borrower|employer|employee|contractor|client|customer|company|consultant|disclosing party|receiving party|licensor|licensee|lessor|lessee|vendor|supplier|owner|renter|guarantor|provider|comprador|vendedor|arrendador|arrendatario|inquilino|propietario|empresa|consultor|cliente|proveedor|prestador|acheteur|vendeur|bailleur|locataire|proprietaire|societe|prestataire|client|kaufer|verkaufer|vermieter|mieter|auftraggeber|auftragnehmer|arbeitgeber|arbeitnehmer|acquirente|venditore|locatore|conduttore|societa|consulente|fornitore|committente|senhorio|fiador|garante|avalista|caution|burge)$/;
