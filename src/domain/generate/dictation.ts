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
const CONNECTIVE = new Set(['then', 'next', 'afterwards', 'dann', 'danach', 'ausserdem', 'puis', 'ensuite', 'luego', 'despues', 'ademas', 'poi', 'inoltre', 'depois', 'entao']);
/** Fillers of speech, dropped: "uh", "äh", "euh" (not "um", a Portuguese article). */
const FILLER = /(?<![\p{L}])(?:uh+|erm|ehm|hmm+|ähm|äh|euh)(?![\p{L}])\s*/giu;
/** Words after which the phrase goes on: articles' objects, prepositions, possessives, conjunctions. */
const LINKS = new Set(['of', 'for', 'the', 'a', 'an', 'their', 'his', 'her', 'its', 'your', 'our', 'my', 'in', 'on', 'at', 'to', 'with', 'from', 'and', 'or', 'by', 'per', 'each', 'par', 'por', 'von',
  'please', 'full', 'first', 'last', 'given', 'family', 'legal', 'complete', 'home', 'work', 'business', 'contact', 'emergency', 'current', 'previous', 'preferred', 'postal', 'billing', 'delivery', 'mobile', 'phone', 'e',
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
const QUESTION = new Set(['whether', 'what', 'where', 'when', 'how', 'who', 'si', 'se', 'ob', 'wie', 'wo', 'wann', 'welche', 'quando', 'dove', 'come', 'cuando', 'donde', 'como', 'quand', 'comment', 'quel', 'quelle', 'onde', 'qual', 'quem', 'quien']);
/** "were you injured", "do they smoke": an auxiliary before its subject asks. */
const AUXILIARY = new Set(['were', 'was', 'did', 'do', 'does', 'is', 'are', 'have', 'has', 'will', 'can']);
const SUBJECT = new Set(['you', 'they', 'he', 'she', 'it', 'there', 'the', 'we']);
const NOT_AFTER_QUESTION = new Set(['o', 'ou', 'or', 'oder', 'no', 'non', 'nao', 'not']);
/** "yes or no", "ja nein", "oui ou non", "sí o no", "sim ou não": an answer that closes its question. */
const YES_NO_PAIR = /(?<![\p{L}])(yes|ja|oui|si|sì|sí|sim)\s+(?:(?:or|oder|ou|o)\s+)?(no|nein|non|não|nao)(?![\p{L}])/giu;
/** Words between a signing verb and its subject: "unterschreiben tun der Fahrer", "firma anche il genitore". */
const AFTER_VERB = new Set(['tun', 'auch', 'also', 'too', 'tambien', 'anche', 'aussi', 'tambem', 'ebenfalls', 'zusatzlich', 'ademas', 'inoltre', 'all', 'both']);
const AND_WORD = new Set(['and', 'y', 'e', 'et', 'und']);
const CONJUNCTION = new Set(['and', 'y', 'e', 'et', 'und', 'then', 'dann', 'poi', 'puis', 'luego', 'depois']);
/** "at the end", "am Ende", "alla fine": where the signing goes, a sentence's end in speech. */
const AT_THE_END = /(?<![\p{L}])(?:(?:and|und|et|y|e)\s+)?(?:at the end|in the end|finally|am ende|zum schluss|al final|a la fin|à la fin|alla fine|no final|no fim)(?![\p{L}])/giu;
/** "I need a form for …", "ich brauche", "mi serve": the request, whose list follows. */
const REQUEST = /(?<![\p{L}])(?:need|needs|want|brauche|brauchen|necesito|necesitamos|faut|faudrait|serve|servono|preciso|precisamos|queria|vorrei|voudrais|quiero)(?![\p{L}])/iu;
/** "ok so", "alors", "allora", "bueno": how speech starts, not what it asks for. */
const LEAD = /^(?:(?:ok(?:ay)?|so|right|alright|alors|bon|allora|dunque|bueno|pues|vale|entao|então|also|gut|na ja)(?![\p{L}])[\s,]*)+/iu;
/** What introduces a list of choices: "which is", "entweder", "che può essere", "que é". */
const CHOICES_AFTER = new Set(['is', 'are', 'be', 'either', 'entweder', 'soit', 'ser', 'essere', 'etre', 'sein', 'also', 'namely', 'cioe', 'sea', 'é']);
const OR_WORD = new Set(['or', 'oder', 'ou', 'o']);
/** English heads that end a field's name ("phone number", "date of birth"): a field word after one starts the next. */
const EN_HEAD = new Set(['number', 'name', 'birth', 'code', 'id', 'surname', 'details']);
/** "the form is name, address …", "it needs name …": what follows the verb is the list. */
const COPULA = new Set(['is', 'are', 'include', 'includes', 'need', 'needs', 'ist', 'sind', 'est', 'sont', 'e', 'sono', 'es', 'son']);
/** "tiene que firmar", "must sign", "muss unterschreiben": the modal starts the signing clause. */
const MODAL = new Set(['must', 'should', 'has', 'have', 'tiene', 'tienen', 'debe', 'deben', 'doit', 'doivent', 'muss', 'mussen', 'soll', 'sollen', 'deve', 'devono', 'tem', 'precisa', 'needs']);
const SIGN_INFINITIVE = /^(?:sign|firmar|signer|unterschreiben|unterzeichnen|firmare|assinar)$/;
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
  const least = out !== text ? 4 : 25;
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
  const clean = line.replace(FILLER, '').replace(LEAD, '').replace(AT_THE_END, '.').replace(YES_NO_PAIR, (_, y: string, n: string) => `${y}/${n}.`);
  const pt = (clean.match(PT_WORDS) ?? []).length >= 2 && (clean.match(PT_WORDS) ?? []).length > (clean.match(OTHER_ROMANCE) ?? []).length;
  const en = (clean.match(EN_WORDS) ?? []).length >= 3;
  const tokens = clean.trim().split(/\s+/);
  const folded = tokens.map((t) => fold(t).replace(/[^\p{L}\p{N}'’]/gu, ''));
  const isArticle = (f: string): boolean => ARTICLE.has(f) || (pt && ARTICLE_PT.has(f));
  const marks: string[] = tokens.map(() => '');
  choicesInRun(tokens, folded, marks);
  const dropped = new Set<number>();
  // After "whether", "se", "s'il", the question runs on to its yes/no or a few words: its object is no item.
  let question = -1;
  // After a signing verb come the parties ("firman el propietario y el estudiante"), not items.
  let signing = -1;
  let colon = clean.includes(':');
  // The request ("ich brauche eine Unfallmeldung für die Werkstatt") heads the list its first field word starts.
  let request = REQUEST.test(clean.split(/\s+/).slice(0, 12).join(' '));
  for (let i = 1; i < tokens.length; i++) {
    const f = folded[i]!;
    const prev = folded[i - 1]!.replace(/['’]/g, '');
    const next = folded[i + 1] ?? '';
    if (/[,.;:!?]$/.test(tokens[i - 1]!) || marks[i - 1] !== '') {
      if (/[.]$/.test(tokens[i - 1]!) || marks[i - 1] === '.') { question = -1; signing = -1; }
      continue;
    }
    const linked = LINKS.has(prev) || QUESTION.has(prev) || SIGNS.test(prev) || CONNECTIVE.has(prev);
    const asks = QUESTION.has(f) || /^s['’]il/.test(f) || (AUXILIARY.has(f) && SUBJECT.has(next));
    if (MODAL.has(f) && (SIGN_INFINITIVE.test(next) || SIGN_INFINITIVE.test(folded[i + 2] ?? '')) && !linked) {
      marks[i - 1] = '.';
      signing = i;
      question = -1;
    } else if (SIGNS.test(f) || (f === 'signed' && next === 'by')) {
      // "and the sender signs", "das Mitglied unterschreibt": the subject before the verb is the clause's.
      let at = i;
      for (let j = i - 1; j >= Math.max(1, i - 3) && !namesAField(folded[j]!); j--) {
        if (CONJUNCTION.has(folded[j]!)) { at = j; break; }
        const before = folded[j - 1]!.replace(/['’]/g, '');
        if (isArticle(folded[j]!) && (CONJUNCTION.has(before) || !LINKS.has(before))) { at = CONJUNCTION.has(before) ? j - 1 : j; break; }
      }
      marks[at - 1] = '.';
      question = -1;
      signing = i;
    } else if (CONNECTIVE.has(f) && (!LINKS.has(prev) || AND_WORD.has(prev))) {
      // "then", "and then", "dann", "poi": the sentence ends; the words themselves say nothing more.
      if (AND_WORD.has(prev) && i >= 2) { marks[i - 2] = '.'; dropped.add(i - 1); } else marks[i - 1] = '.';
      dropped.add(i);
      question = -1;
      signing = -1;
    } else if (asks) {
      if (!NOT_AFTER_QUESTION.has(next)) { if (!linked) marks[i - 1] = ','; question = i; }
    } else if (linked || (question >= 0 && i - question <= 6)) continue;
    // After a signing verb come its parties: "firman el trabajador, el encargado …" (articles part them), never fields.
    else if (signing >= 0) { if (isArticle(f) && i - signing > 1 && !AFTER_VERB.has(prev)) marks[i - 1] = ','; }
    else if (COPULA.has(prev) && namesAField(f) && !colon && i >= 2) {
      // "the form for the club is name, address": the heading, then its list ("is" goes).
      marks[i - 2] = ':';
      dropped.add(i - 1);
      colon = true;
    }
    else if (isArticle(f)) marks[i - 1] = ',';
    else if (request && !marks.some((m) => m !== '') && namesAField(f) && !colon && !isArticle(prev)) { marks[i - 1] = ':'; colon = true; request = false; }
    // English puts the head last ("phone number", "email address"): a field word after a plain word is its head.
    else if (namesAField(f) && !isArticle(prev) && (!en || EN_HEAD.has(prev) || (namesAField(prev) && !(f === 'address' && /mail$/.test(prev))))) marks[i - 1] = ',';
  }
  return tokens.map((t, i) => (dropped.has(i) ? '' : `${t}${/[,.;:]$/.test(t) ? '' : marks[i]!}`)).filter(Boolean).join(' ');
}

/** "which is junior adult or senior", "entweder erwachsener jugendlicher oder familie": the choices get their commas. */
function choicesInRun(tokens: string[], folded: string[], marks: string[]): void {
  for (let k = 2; k < tokens.length - 1; k++) {
    if (!OR_WORD.has(folded[k]!)) continue;
    let j = k - 1;
    while (j > 0 && k - j <= 6 && !LINKS.has(folded[j]!) && !CHOICES_AFTER.has(folded[j]!) && !CHOICES_AFTER.has(tokens[j]!.toLowerCase()) && !namesAField(folded[j]!)) j--;
    if (j === k - 1 || !(CHOICES_AFTER.has(folded[j]!) || CHOICES_AFTER.has(tokens[j]!.toLowerCase()))) continue;
    for (let m = j + 1; m < k - 1; m++) marks[m] = ',';
  }
}
