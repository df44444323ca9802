// Dictated descriptions: speech typed out with no punctuation ("name vorname geburtsdatum adresse telefon
// und email dann die mitgliedsart …") or with the punctuation spoken ("name comma address full stop").
// The rest of the generator reads commas and sentences, so a run-on line is given them back by its
// structure: a spoken mark is the mark; a connective ("then", "dann", "poi", "depois"), a signing verb,
// a question word or "whether" starts a sentence; a word that names a field, or an article after a
// noun, starts an item. In any of the six languages.
import { fold } from './lexicon.js';
import { namesAField } from './segment.js';

/** Spoken marks, folded: "comma", "Komma", "virgola", "full stop", "Punkt", "ponto final". */
const SPOKEN = /(?<![\p{L}])(?:(comma|komma|virgola|virgule|coma|virgula)|(full stop|period|punkt|punto(?: y aparte| e a capo| final)?|point(?: final)?|ponto(?: final)?)|(new line|new paragraph|neue zeile|neuer absatz|a capo|nouvelle ligne|nueva linea|punto y aparte|nova linha|paragrafo))(?![\p{L}])/gu;
const PUNCTUATION = /[,.;:!?\n]/g;

/** A word that starts a new sentence in speech. */
const CONNECTIVE = new Set(['then', 'next', 'also', 'afterwards', 'dann', 'danach', 'ausserdem', 'puis', 'ensuite', 'luego', 'despues', 'ademas', 'poi', 'inoltre', 'depois', 'entao']);
/** Fillers of speech, dropped: "uh", "äh", "euh" (not "um", a Portuguese article). */
const FILLER = /(?<![\p{L}])(?:uh+|erm|ehm|hmm+|ähm|äh|euh)(?![\p{L}])\s*/giu;
/** Words after which the phrase goes on: articles' objects, prepositions, possessives, conjunctions. */
const LINKS = new Set(['of', 'for', 'the', 'a', 'an', 'their', 'his', 'her', 'its', 'your', 'our', 'my', 'in', 'on', 'at', 'to', 'with', 'from', 'and', 'or', 'by', 'per', 'each', 'par', 'por', 'von',
  'please', 'bitte', 'full', 'first', 'last', 'given', 'family', 'legal', 'complete', 'home', 'work', 'business', 'contact', 'emergency', 'current', 'previous', 'preferred', 'postal', 'billing', 'delivery', 'mobile', 'phone', 'e',
  'de', 'del', 'la', 'el', 'los', 'las', 'un', 'una', 'su', 'sus', 'y', 'o', 'u', 'para', 'por', 'con', 'en', 'al', 'lo',
  'du', 'des', 'le', 'les', 'et', 'ou', 'pour', 'avec', 'sa', 'son', 'ses', 'leur', 'leurs', 'votre', 'vos', 'une', 'l', 'd', 'au', 'aux', 'dans', 'sur',
  'der', 'die', 'das', 'den', 'dem', 'des', 'und', 'oder', 'fur', 'von', 'vom', 'zum', 'zur', 'mit', 'im', 'ein', 'eine', 'einen', 'seine', 'ihre', 'ihren', 'seinen', 'bei', 'auf',
  'di', 'della', 'dello', 'dei', 'degli', 'delle', 'dell', 'il', 'gli', 'lo', 'per', 'con', 'nel', 'nella', 'sul', 'uno', 'suo', 'sua',
  'do', 'da', 'dos', 'das', 'os', 'as', 'um', 'uma', 'seu', 'sua', 'no', 'na', 'com', 'pelo', 'pela', 'pro', 'pra']);
/** Articles and possessives that start a noun phrase. */
const ARTICLE = new Set(['the', 'their', 'his', 'her', 'your', 'el', 'la', 'los', 'las', 'su', 'sus', 'le', 'les', 'sa', 'ses', 'der', 'die', 'das', 'den', 'dem', 'il', 'lo', 'gli', 'seu', 'sua']);
/** "o", "a", "os", "as" are articles in Portuguese only (elsewhere "or", "to", "has"). */
const ARTICLE_PT = new Set(['o', 'a', 'os', 'as']);
const PT_WORDS = /(?<![\p{L}])(?:do|da|dos|das|um|uma|com|pelo|pela|ou|pra|pro|não|nao|também|tambem|seu|sua)(?![\p{L}])/giu;
const OTHER_ROMANCE = /(?<![\p{L}])(?:del|el|los|las|y|di|il|della|le|les|du|des|et)(?![\p{L}])/giu;
/** English puts the head last ("sender name", "phone number"): a field word after a plain word is its head. */
const EN_WORDS = /(?<![\p{L}])(?:the|and|of|with|for|then|their|we|need|from|what|is)(?![\p{L}])/giu;
const QUESTION = new Set(['whether', 'what', 'where', 'when', 'how', 'which', 'who', 'si', 'se', 'ob', 'wie', 'wo', 'wann', 'welche', 'quando', 'dove', 'come', 'cuando', 'donde', 'como', 'quand', 'comment', 'quel', 'quelle', 'onde', 'qual', 'quem', 'quien']);
/** "were you injured", "do they smoke": an auxiliary before its subject asks. */
const AUXILIARY = new Set(['were', 'was', 'did', 'do', 'does', 'is', 'are', 'have', 'has', 'will', 'can']);
const SUBJECT = new Set(['you', 'they', 'he', 'she', 'it', 'there', 'the', 'we']);
const NOT_AFTER_QUESTION = new Set(['o', 'ou', 'or', 'oder', 'no', 'non', 'nao', 'not']);
/** "yes or no", "ja nein", "oui ou non", "sí o no", "sim ou não": an answer that closes its question. */
const YES_NO_PAIR = /(?<![\p{L}])(yes|ja|oui|si|sì|sí|sim)\s+(?:(?:or|oder|ou|o)\s+)?(no|nein|non|não|nao)(?![\p{L}])/giu;
const AND_WORD = new Set(['and', 'y', 'e', 'et', 'und']);
const CONJUNCTION = new Set(['and', 'y', 'e', 'et', 'und', 'then', 'dann', 'poi', 'puis', 'luego', 'depois']);
/** Signing verbs: a signing clause starts at them. */
const SIGNS = /^(?:signs?|signed|countersigns?|firma|firman|firmano|firmen|firme|unterschreib\w*|unterzeichn\w*|signe|signent|signee?s?|assina|assinam|assine|assinem)$/;

/** The text with spoken marks written and run-on lines given their commas and sentence ends. */
export function punctuateDictation(text: string): string {
  const spoken = [...fold(text).matchAll(SPOKEN)].length;
  let out = text;
  if (spoken >= 2 && (fold(text).match(PUNCTUATION) ?? []).length <= spoken) {
    out = out.replace(new RegExp(SPOKEN.source, 'giu'), (m: string) => {
      const f = fold(m);
      if (/comma|komma|virgol|virgule|coma|virgula/.test(f)) return ',';
      if (/line|zeile|absatz|capo|linea|linha|paragrafo|aparte/.test(f)) return '\n';
      return '.';
    }).replace(/\s+([,.])/g, '$1').replace(/([,.])(?:\s*[,.])+/g, '$1');
  }
  // A run is judged between full stops (prose has short sentences, speech goes on); once the marks were
  // spoken, between any two of them.
  const between = out !== text ? /((?<=[,.!?;:])\s+)/ : /((?<=[.!?;:])\s+)/;
  const least = out !== text ? 8 : 25;
  return out.split('\n').map((line) => line.split(between).map((part) => (/^\s*$/.test(part) ? part : runOn(part, least))).join('')).join('\n');
}

/** A sentence of `least` words or more with about no commas is speech: it gets its commas and full stops. */
function runOn(line: string, least: number): string {
  const words = line.trim().split(/\s+/);
  // (Between spoken marks, the mark that ends the run does not count.)
  const body = least < 25 ? line.trim().slice(0, -1) : line;
  if (words.length < least || (body.match(PUNCTUATION) ?? []).length * 15 > words.length) return line;
  // "… with the address and the rent and the deposit and …": a list joined by "and" reads as it is.
  if (words.filter((x) => AND_WORD.has(fold(x))).length * 10 >= words.length) return line;
  const clean = line.replace(FILLER, '').replace(YES_NO_PAIR, (_, y: string, n: string) => `${y}/${n}.`);
  const pt = (clean.match(PT_WORDS) ?? []).length >= 2 && (clean.match(PT_WORDS) ?? []).length > (clean.match(OTHER_ROMANCE) ?? []).length;
  const en = (clean.match(EN_WORDS) ?? []).length >= 3;
  const tokens = clean.trim().split(/\s+/);
  const folded = tokens.map((t) => fold(t).replace(/[^\p{L}\p{N}'’]/gu, ''));
  const isArticle = (f: string): boolean => ARTICLE.has(f) || (pt && ARTICLE_PT.has(f));
  const marks: string[] = tokens.map(() => '');
  for (let i = 1; i < tokens.length; i++) {
    const f = folded[i]!;
    const prev = folded[i - 1]!.replace(/['’]/g, '');
    const next = folded[i + 1] ?? '';
    if (/[,.;:!?]$/.test(tokens[i - 1]!)) continue;
    const linked = LINKS.has(prev) || QUESTION.has(prev) || SIGNS.test(prev) || CONNECTIVE.has(prev);
    if (SIGNS.test(f) || (f === 'signed' && next === 'by')) {
      // "and the sender signs", "das Mitglied unterschreibt": the subject before the verb is the clause's.
      let at = i;
      for (let j = i - 1; j >= Math.max(1, i - 3) && !namesAField(folded[j]!); j--) {
        if (CONJUNCTION.has(folded[j]!)) { at = j; break; }
        const before = folded[j - 1]!.replace(/['’]/g, '');
        if (isArticle(folded[j]!) && (CONJUNCTION.has(before) || !LINKS.has(before))) { at = CONJUNCTION.has(before) ? j - 1 : j; break; }
      }
      marks[at - 1] = '.';
    } else if (CONNECTIVE.has(f) && !LINKS.has(prev)) marks[i - 1] = '.';
    else if (linked) continue;
    else if (QUESTION.has(f) || /^s['’]il/.test(f) || (AUXILIARY.has(f) && SUBJECT.has(next))) { if (!NOT_AFTER_QUESTION.has(next)) marks[i - 1] = ','; }
    else if (isArticle(f)) marks[i - 1] = ',';
    else if (namesAField(f) && !isArticle(prev) && (!en || namesAField(prev))) marks[i - 1] = ',';
  }
  return tokens.map((t, i) => `${t}${marks[i]!}`).join(' ');
}
