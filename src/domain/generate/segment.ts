// Splits a description into a title and list items: sentences, lines, bullets, semicolons, commas
// and "and"/"plus" (and their Spanish, French and German twins). Parenthesised groups are kept whole:
// "(annual, sick, unpaid)" is one choice list, "(optional)" one remark.
import { CONSENT, DATE_SIGNED, fold, INITIALS, isMultiline, SIGNATURE, typeOf } from './lexicon.js';

export interface Item {
  /** The phrase as written (placeholders of parenthesised groups removed). */
  text: string;
  /** A choice list: "(A, B or C)", "(yes/no)", or "X: A, B or C". */
  options?: string[];
  /** One-part parenthesised remarks: "(optional)", "(date)". */
  remarks: string[];
  /** Ends with a question mark. */
  question: boolean;
  /** One of several phrases joined by "and" ("… and whether they smoke"). */
  joined?: boolean;
  /** The sentence's last item. */
  last?: boolean;
}

export interface Segmented {
  title: string | undefined;
  sentences: string[];
}

const GROUP = /\u2063(\d+)\u2063/g;
const OR = /\s+(?:or|o|ou|oder|u)\s+|\s*\/\s*/;
const LIST = /\s*,\s*|\s+(?:or|o|ou|oder|u)\s+|\s*\/\s*/;
// Spaces only: a glued phrase (below) joins its words with no-break spaces, which \s would split.
const AND = /[ \t\n]+(?:and|&|plus(?![ \t]+(?:de|d['’]|que|di|do|da)\b)|as well as|along with|together with|y|e|et|und|sowie)[ \t\n]+/;
const KEEP_TOGETHER = /s'il y a|il y a|y a-t-il|conditions generales|allgemeinen geschaftsbedingungen/;

/** A no-break space: joins the words of a phrase whose "and" is not a list's ("health and safety officer"). */
export const GLUE_SPACE = '\u00a0';
// One thing named with an "and": it is never split, wherever it stands in a run-on sentence (not only
// when it is a whole item) — "the date and time of the incident and the location", "firma el técnico de
// salud y seguridad", "mit Vor- und Nachname".
const GLUED = /(?<![a-z])(?:(?:first|given) and (?:last|family) names?|name and surname|nome e cognome|nombre y apellidos?|(?:le )?nom et (?:le )?prenom|(?:le )?prenom et (?:le )?nom|vor- und nachname|vorname und nachname|compra e venda|achat et vente|kauf und verkauf|strasse und hausnummer|street and (?:house )?number|calle y numero|rue et numero|via e numero civico|rua e numero|terms (?:and|&) conditions|rules and regulations|health and safety|salud y seguridad|sante et securite|hygiene et securite|salute e sicurezza|saude e seguranca|arbeits- und gesundheitsschutz|terminos y condiciones|termini e condizioni|termos e condicoes|date and (?:the )?time|fecha y (?:la )?hora|date et (?:l['’] ?)?heure|datum und uhrzeit|data e (?:l['’] ?)?ora|data e (?:a )?hora|bed and breakfast|research and development|human resources and)(?![a-z])/g;

/** Joins the words of the phrases in GLUED with no-break spaces (positions found on the folded text). */
export function glue(text: string): string {
  // Most descriptions glue nothing: one test on the folded whole before the per-character pass.
  if (fold(text).search(GLUED) < 0) return text;
  const chars = [...text];
  let folded = '';
  const at: number[] = [];
  chars.forEach((c, i) => { const f = fold(c); for (let k = 0; k < f.length; k++) at.push(i); folded += f; });
  for (const m of folded.matchAll(GLUED)) {
    for (let k = m.index; k < m.index + m[0].length; k++) if (folded[k] === ' ') chars[at[k]!] = GLUE_SPACE;
  }
  return chars.join('');
}

export const unglue = (s: string): string => s.replaceAll(GLUE_SPACE, ' ');
const TITLE_WORDS = 'certificat|certificado|certificato|atto|contratto|modulo|domanda|richiesta|ficha|termo|pedido|inscricao|inscripcion|inscription|iscrizione|autorisation|autorizzazione|autorizacao|autorizacion|dichiarazione|liberatoria|scheda|questionario|inquerito|encuesta|verbale|relatorio|declaracion|declaration|fiche|protokoll|vereinbarung|exencion|decharge|haftungsausschluss|form|waiver|agreement|application|contract|request|release|survey|questionnaire|checklist|registration|consent|authori[sz]ation|report|sheet|slip|lease|nda|rsvp|order|invoice|record|notification|pledge|enrolment|enrollment|renewal|intake|approval|formulario|solicitud|contrato|consentimiento|formulaire|demande|bail|autorisation|contrat|[a-z]*antrag|[a-z]*vertrag|[a-z]*formular|[a-z]*erklarung|[a-z]*anmeldung';
/** "Fields: …", "It should ask for: …": an introduction, neither a title nor a field. */
const HEADING = /^(?:(?:the )?fields?(?: needed| required| to include)?|(?:the form|it) (?:should |must |will )?(?:have|has|include|includes|ask for|asks for|collect|collects|contain|contains)|include|including|please include|campos|champs|felder|datos|angaben|informations?)$/i;
/** "For the parent:", "Para el menor:", "Für den Mieter:": whose fields follow, not a field. */
const FOR_WHOM = /^(?:for|para|pour|f(?:ü|u)r|per)\s+(?:the|el|la|los|las|le|la|les|l['’]\s*|den|die|das|il|lo|o|a|os|as)?\s*[\p{L}-]+$/iu;
const POSTAL = /\b(?:address|adresse|direccion|domicilio|indirizzo|morada|endereco|anschrift|name|nom|nombre|nome)\b/;
export const TITLE_NOUN = new RegExp(`\\b(?:${TITLE_WORDS})\\b`);

export class Groups {
  readonly all: string[] = [];
  protect(text: string): string {
    return text.replace(/\(([^()]{0,300})\)/g, (_, inner: string) => `\u2063${this.all.push(inner.trim()) - 1}\u2063`);
  }
  restore(text: string): string {
    return text.replace(GROUP, (_, i: string) => `(${this.all[Number(i)] ?? ''})`);
  }
}

/** Lines, bullets, sentences and semicolons; the first short heading becomes the title. */
export function sentences(prompt: string, groups: Groups, titled = false): Segmented {
  const text = groups.protect(prompt.replace(/\r\n?/g, '\n'))
    .replace(/^[ \t]*(?:[-*•·▪‣◦]|\d{1,2}[.)])[ \t]+/gm, '\n')
    .replace(/[ \t]+/g, ' ');
  const parts = text
    .split(/\n+|;\s*|(?<!\b[A-Z]|\b(?:e\.g|i\.e|etc|no|Dr|Mr|Mrs|Ms|St|vs))[.!]+(?:\s+|$)|\.{3,}|(?<=\?)\s+(?=[A-ZÀ-Ýa-zà-ÿ¿¡](?![^.!?\n]*\/))/)
    .map((s) => s.trim().replace(/^[-–—:,\s]+|[-–—,\s]+$/g, ''))
    .filter((s) => s.length > 0);
  let title: string | undefined;
  const first = parts[0];
  // A section heading (segmentLines' mark) is never the title.
  if (first !== undefined && !first.startsWith('\u2062')) {
    const head = splitHead(first);
    if (head && /:\s*$/.test(first) && wordCount(head.right) <= 3 && !head.right.includes(',')) {
      // "Liability waiver - climbing:" on its own line: the whole line is the title.
      title = first.replace(/:\s*$/, '');
      parts[0] = '';
    } else if (head && HEADING.test(head.left.trim())) {
      parts[0] = head.right;
    } else if (head && wordCount(head.left) <= 8 && !head.left.includes(',')) {
      if (!looksLikeOptions(head.right)) {
        title = head.left;
        parts[0] = head.right;
      }
    } else {
      const withMatch = /^(.{3,80}?)\s+(?:with|including|that (?:has|collects|asks for)|con|avec|mit|com)\s+(.*)$/i.exec(first);
      if (withMatch && wordCount(withMatch[1]!) <= 9 && TITLE_NOUN.test(fold(withMatch[1]!))) {
        title = withMatch[1]!;
        parts[0] = withMatch[2]!;
      } else if (/^(?:for|para|pour|fur|für)\s+(?:our|the|a|an|this|my|nuestro|nuestra|el|la|notre|le|la|unser\w*|den|die|das)\s+[^,]{2,60},/i.test(first) && !namesAField(fold(first.split(',')[0]!))) {
        // "For our photography workshop, participants should provide …"
        title = first.split(',')[0]!.replace(/^\S+\s+\S+\s+/, '');
        parts[0] = first.slice(first.indexOf(',') + 1).trim();
      } else if (first.includes(',') && TITLE_NOUN.test(fold(first.split(',')[0]!)) && wordCount(first.split(',')[0]!) >= 2 && wordCount(first.split(',')[0]!) <= 8 && !namesAField(fold(first.split(',')[0]!))) {
        // "Babysitter agreement between parents and babysitter, hourly rate, …"
        title = first.split(',')[0]!;
        parts[0] = first.slice(first.indexOf(',') + 1).trim();
      } else if (!titled && parts.length > 1 && !first.includes(',') && !/\?/.test(first) && !/\u2063\d+\u2063/.test(first) && wordCount(first) <= 8 && !AND.test(first) && (TITLE_NOUN.test(fold(first)) || !namesAField(fold(first)))) {
        title = first;
        parts.shift();
      }
    }
  }
  return { title: title === undefined ? undefined : groups.restore(title).trim(), sentences: parts.filter((s) => s.length > 0) };
}

/** "Heading: rest", "Heading - rest", "Heading — rest". */
export function splitHead(sentence: string): { left: string; right: string } | undefined {
  const m = /^(.+?)\s*(?::|\s[-–—]\s)\s*(.*)$/.exec(sentence);
  return m ? { left: m[1]!.trim(), right: m[2]!.trim() } : undefined;
}

/** Short items joined by commas and a final "or": "basic, standard or premium". */
export function looksLikeOptions(text: string): boolean {
  if (!OR.test(text)) return false;
  const items = text.split(LIST).map((s) => s.trim()).filter(Boolean);
  // Up to four words a choice: "retraso en la entrega", "falta justificada".
  // "5 km or 10 km": a measure is a choice, though "km" alone would name a number field.
  return items.length >= 2 && items.every((s) => wordCount(s) <= 4 && (!namesAField(fold(s)) || /^\d+(?:[.,]\d+)?\s*\p{L}{0,5}$/u.test(s))) && !GROUP.test(text);
}

export function optionList(text: string): string[] {
  return text.split(LIST).map((s) => s.trim().replace(/[.?!]+$/, '')).filter(Boolean);
}

/** A sentence's items: split by commas, then by "and" (with compound heads shared), groups resolved. */
export function items(sentence: string, groups: Groups): Item[] {
  const out = itemsOf(choicePhrases(sentence, groups), groups);
  const last = out[out.length - 1];
  if (last) last.last = true;
  return out;
}

// "the membership type which is monthly, quarterly or annual", "el tipo de cuota que puede ser mensual,
// trimestral o anual", "dem Tarif, der monatlich, vierteljährlich oder jährlich sein kann".
// "how the photos may be used which is portfolio, social media or advertising", "der Abteilung also Fußball,
// Tennis oder Schwimmen": a choice may have two words, and "i.e." words introduce the list too.
const CHOICE_PHRASE = /(\S+(?:\s+\S+){0,3}?)\s*,?\s+(?:(?:which|that|que|qui|che|der|die|das)\s+(?:is|are|can be|may be|puede ser|pueden ser|es|peut (?:ê|e)tre|est|può essere|puo essere|è|pode ser|é|ist|kann)?|also|namely|either|entweder|soit|i\.e\.|nämlich|d\.h\.|cioè|ossia|ovvero|o sea|es decir|c['’]est-à-dire|ou seja|isto é)\s*((?:[\p{L}-]+(?:\s+[\p{L}-]+)?\s*,\s*)+[\p{L}-]+(?:\s+[\p{L}-]+)?\s+(?:or|o|ou|oder)\s+[\p{L}-]+)(?:\s+(?:sein kann|sein können|sein))?/giu;

function choicePhrases(sentence: string, groups: Groups): string {
  return sentence.replace(CHOICE_PHRASE, (_, label: string, list: string) => `${label} \u2063${groups.all.push(list) - 1}\u2063`);
}

function itemsOf(sentence: string, groups: Groups): Item[] {
  const head = splitHead(sentence);
  // "plan: basic, plus or pro, …": the choices run to the item with the "or".
  const rightParts = head?.right ? head.right.split(/\s*,\s*/) : [];
  const orAt = rightParts.findIndex((x) => OR.test(x));
  const choices = orAt >= 0 ? rightParts.slice(0, orAt + 1).join(', ') : '';
  if (head && choices && looksLikeOptions(choices) && !/^(?:if|only|solo|nur|seulement|uniquement|apenas|si|se|bei|falls|wenn|pour|para|per)\b/i.test(fold(head.left))) {
    // "…, and chooses insurance: basic, standard or premium": the list belongs to the last item.
    const before = head.left.includes(',') ? itemsOf(head.left, groups) : [resolve(head.left, groups)];
    const last = before[before.length - 1];
    if (last) last.options = optionList(choices);
    const after = rightParts.slice(orAt + 1).join(', ');
    return after ? [...before, ...itemsOf(after, groups)] : before;
  }
  // "Equipment: laptop, projector, camera, tablet": choices without an "or" are still choices when
  // none of them names a field.
  // A long-answer heading may hold choices too ("Régime alimentaire : aucun, sans gluten, sans lactose"), an address never.
  if (head && rightParts.length >= 3 && wordCount(head.left) <= 3 && (!namesAField(fold(head.left)) || (typeOf(fold(head.left)) === 'text' && !POSTAL.test(fold(head.left)))) && !HEADING.test(head.left.trim())
    && rightParts.every((x) => wordCount(x) <= 2 && !namesAField(fold(x)) && !/[.;]/.test(x))) {
    const item = resolve(head.left, groups);
    item.options = rightParts.map((x) => x.trim().replace(/[.?!]+$/, ''));
    return [item];
  }
  // The part before a colon or dash is a heading only when it says so ("Fields:", "Lease agreement -");
  // otherwise it holds fields too ("name, email - and phone").
  const left = head?.left.trim() ?? '';
  const dropLeft = head !== undefined && head.right !== '' && (HEADING.test(left) || FOR_WHOM.test(left) || INTRO.test(fold(left)) || (TITLE_NOUN.test(fold(left)) && !left.includes(',') && wordCount(left) <= 8));
  const body = head && head.right ? (dropLeft ? head.right : `${head.left}, ${head.right}`) : sentence;
  const commaParts: string[] = [];
  for (const raw of body.split(/\s*,\s*/)) {
    const part = raw.trim();
    if (!part) continue;
    const prev = commaParts[commaParts.length - 1];
    // "ich bin einverstanden, dass …" belongs to the clause before; so does the rest of a statement the
    // signer agrees to ("I understand that my data is used for treatment, billing and operations").
    if (prev !== undefined && (/^(?:dass|que|that|qui)\b/i.test(part) || (CONSENT.test(fold(prev)) && !namesAField(fold(part))))) {
      commaParts[commaParts.length - 1] += `, ${part}`;
    } else {
      commaParts.push(part);
    }
  }
  const out: Item[] = [];
  for (const part of commaParts) {
    const cleaned = part.replace(/^(?:and|or|plus|also|y|et|und)\s+/i, '');
    const folded = fold(cleaned);
    // "start date and I accept the privacy policy": the statement after the "and" stays whole.
    const consentAt = CONSENT.exec(folded);
    const andBefore = consentAt && consentAt.index > 0 ? /\s+(?:and|&|plus|y|et|und)\s*$/.exec(folded.slice(0, consentAt.index + 1)) : null;
    if (andBefore && andBefore.index > 0) {
      for (const piece of splitAnd(cleaned.slice(0, andBefore.index))) out.push(resolve(piece, groups));
      out.push(resolve(cleaned.slice(consentAt!.index + 1).trim(), groups));
      continue;
    }
    const pieces = consentAt || KEEP_TOGETHER.test(folded) ? [cleaned] : splitAnd(cleaned);
    for (const piece of pieces) {
      const item = resolve(piece, groups);
      if (pieces.length > 1) item.joined = true;
      out.push(item);
    }
  }
  return out;
}

const HEADS = new Set(['name', 'phone', 'email', 'e-mail', 'address', 'number', 'date', 'title', 'id', 'telephone', 'mobile', 'signature', 'initials', 'age', 'company', 'relationship',
  'income', 'nombre', 'apellidos', 'dni', 'nif', 'telefono', 'direccion', 'domicilio', 'correo', 'ingresos', 'nom', 'prenom', 'adresse', 'revenus', 'anschrift', 'telefonnummer', 'einkommen', 'vorname', 'nachname', 'namen',
  'nome', 'cognome', 'indirizzo', 'reddito', 'morada', 'telefone', 'rendimento', 'endereco']);
const ARTICLE_START = /^(?:(?:the|el|la|los|las|le|les|der|die|das|den|dem|il|lo|o|a|os|as|mit|with|con|avec|com)\s+|l['’]\s*)/i;
/** "DNI del comprador", "Anschrift des Käufers", "indirizzo dell'acquirente": a head and its owner. */
const OWNED = /^(\S+)\s+((?:del|de la|de los|de las|de l['’]|du|des|de|dell['’]|della|dello|degli|do|da|dos|das|der|of the|of)\s*\S.*)$/i;
/** "the buyer's name": the owner and the head. */
const POSSESSIVE = /^(.*['’]s)\s+(\S+)$/i;
const NOT_PREFIX = new Set(['full', 'first', 'last', 'legal', 'complete', 'your', 'their', 'his', 'her', 'home', 'current', 'preferred', 'the', 'a', 'an', 'my', 'our', 'printed', 'middle']);

function splitAnd(phrase: string): string[] {
  const pieces = phrase.split(AND).map((s) => s.trim()).filter(Boolean);
  const bare = (p: string): string => fold(p.replace(ARTICLE_START, '')).toLowerCase();
  for (let i = 0; i < pieces.length; i++) {
    // "nombre y DNI del comprador" → "nombre del comprador", "DNI del comprador".
    const owned = OWNED.exec(pieces[i]!.replace(ARTICLE_START, ''));
    if (owned && HEADS.has(fold(owned[1]!).toLowerCase())) {
      for (let k = i - 1; k >= 0 && HEADS.has(bare(pieces[k]!)) && !OWNED.test(pieces[k]!); k--) pieces[k] = `${pieces[k]!.replace(ARTICLE_START, '')} ${owned[2]}`;
    }
    // "the buyer's name and address" → "the buyer's address".
    const poss = i > 0 ? POSSESSIVE.exec(pieces[i - 1]!) : null;
    if (poss && HEADS.has(fold(poss[2]!)) && HEADS.has(bare(pieces[i]!))) pieces[i] = `${poss[1]} ${pieces[i]!.replace(ARTICLE_START, '')}`;
  }
  for (let i = 1; i < pieces.length; i++) {
    const prev = pieces[i - 1]!.replace(/^(?:their|the|your|his|her|my|our)\s+/i, '').split(/\s+/);
    const cur = pieces[i]!;
    const last = prev[prev.length - 1]?.toLowerCase() ?? '';
    // "emergency contact name and phone" shares "emergency contact"; "full name and address" shares nothing.
    const shared = prev.slice(0, -1).filter((w) => !NOT_PREFIX.has(w.toLowerCase()));
    if (!cur.includes(' ') && HEADS.has(cur.toLowerCase()) && prev.length >= 2 && HEADS.has(last) && !NOT_PREFIX.has(prev[0]!.toLowerCase()) && shared.length > 0) {
      pieces[i] = `${shared.join(' ')} ${cur}`;
    }
  }
  return pieces;
}

function resolve(piece: string, groups: Groups): Item {
  const remarks: string[] = [];
  let options: string[] | undefined;
  const text = piece.replace(GROUP, (_, i: string) => {
    const inner = groups.all[Number(i)] ?? '';
    const list = optionList(inner);
    if (list.length >= 2 && list.every((s) => wordCount(s) <= 4)) {
      // "(entrada às 8h, 9h ou 10h)": the words before the first choice introduce the list.
      if (list.length >= 3 && wordCount(list[0]!) > 1 && list.slice(1).every((s) => wordCount(s) === 1 && /\d/.test(s))) list[0] = list[0]!.split(/\s+/).pop()!;
      options = list;
    }
    else remarks.push(inner);
    return ' ';
  }).replace(/[^\S\u00a0]+/g, ' ').trim();
  const question = /\?/.test(text);
  // "Breakfast included? yes / no / not sure": the answers follow the question.
  const answers = options ? null : /^(.+?)\?\s*(\S.*)$/.exec(text);
  if (answers && /\//.test(answers[2]!) && optionList(answers[2]!).length >= 2 && optionList(answers[2]!).every((s) => wordCount(s) <= 3)) {
    return { text: answers[1]!.replace(/[¿¡!]/g, '').trim(), remarks, question, options: optionList(answers[2]!) };
  }
  const item: Item = { text: text.replace(/[?¿¡!]/g, '').trim(), remarks, question };
  if (options) item.options = options;
  return item;
}

export function wordCount(s: string): number {
  return s.split(/\s+/).filter(Boolean).length;
}

/** A title from a paragraph: "… needs a waiver …" → "Waiver"; "a form for a contractor invoice approval" → "Contractor invoice approval". */
export function titleFromText(text: string): string | undefined {
  const f = text.split(/[.\n]/)[0] ?? '';
  const forM = /\b(?:form|document|sheet)\s+for\s+(?:a|an|the|our)?\s*([\p{L}-]+(?:\s+[\p{L}-]+){0,3})/iu.exec(f);
  if (forM) return forM[1];
  const nounM = new RegExp(`\\b(?:a|an|the|our|un|una|une|uno|um|uma|ein|eine|einen)\\s+((?:[\\p{L}-]+\\s+){0,2}?(?:${TITLE_WORDS})(?:\\s+(?:de|di|da|do|for|of|para|pour|per|fur)\\s+[\\p{L}-]+)?)\\b`, 'iu').exec(fold(f));
  if (nounM) {
    const start = fold(f).indexOf(nounM[1]!);
    return f.slice(start, start + nounM[1]!.length);
  }
  return undefined;
}

const FIELD_NOUN = /\b(?:name|title|company|id|code|signature|initials|nombre|nom|prenom|vorname|nachname|firma|unterschrift|nome|cognome|assinatura)\b/;
const INTRO = /^(?:[^,]{0,40},\s*)?(?:please\s+)?(?:(?:i|we)\s+(?:need|want|would like)|make|create|prepare|set up|necesito|necesitamos|nous avons besoin|il nous faut|il nous faudrait|merci de|wir brauchen|wir benotigen|ich brauche|bitte|ci serve|mi serve|abbiamo bisogno|vi chiedo|preciso|precisamos|necessitamos)\b/;

/** Whether a phrase names a field of its own (rather than continuing a sentence). */
export function namesAField(folded: string): boolean {
  if (/^(?:and|or|y|o|et|ou|und|oder)\b/.test(folded)) return false;
  return typeOf(folded) !== 'text' || isMultiline(folded) || SIGNATURE.test(folded) || INITIALS.test(folded) || DATE_SIGNED.test(folded) || FIELD_NOUN.test(folded) || CONSENT.test(folded) || /\u2063/.test(folded);
}
