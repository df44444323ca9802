// Turns a description as people paste it into the plain list the field reader expects: an e-mail's
// greeting, sign-off and sender go (its subject becomes the title), requests to the reader ("Could you
// set up a form…?") and injected instructions go, tables and per-item checklists become one choice per
// item ("Kitchen (good, fair, poor)"), tick boxes are marked, and lines that head a group of bullets
// become section headings.
import { rewriteChoices, ROW_NOUN_MARK } from './choices.js';
import { fold } from './lexicon.js';
import { namesAField, titleFromText } from './segment.js';
import type { Language } from './spec.js';

export interface Prepared {
  text: string;
  /** From an e-mail's "Subject:" line or a request to the reader. */
  title?: string;
}

/** Put in front of a line that heads a section; the field reader starts a section there. */
export const SECTION_MARK = '\u2062§';
/** Put in a checkbox item's remarks: "[ ] I will return it" is a tick box whatever its words. */
export const TICK_REMARK = 'tick box';

const SUBJECT = /^\s*(?:subject|re|asunto|objet|betreff|oggetto|assunto)\s*:\s*(.+)$/im;
const GREETING = /^(?:hi|hello|hey|dear|good (?:morning|afternoon|evening)|greetings|hola|buenos dias|buenas(?: tardes)?|estimad[oa]s?|querid[oa]|bonjour|bonsoir|salut|madame|monsieur|cher|chere|hallo|guten (?:tag|morgen)|sehr geehrte[rs]?|liebe[rs]?|moin|servus|ciao|buongiorno|buonasera|gentile|egregio|car[oa]|ola|oi|bom dia|boa tarde|prezad[oa]|car[oa]s?|exm[oa]s?|madame|monsieur|mesdames|pessoal)\b/;
export const SIGN_OFF = /^[¡!]?(?:thanks|thank you|thx|ta|many thanks|cheers|best|best regards|kind regards|regards|warm regards|all the best|sincerely|yours|gracias|muchas gracias|un saludo|saludos|atentamente|cordialmente|un abrazo|merci|merci beaucoup|cordialement|bien a vous|bonne journee|a bientot|amities|danke|vielen dank|viele grusse|beste grusse|liebe grusse|mit freundlichen grussen|lg|vg|grazie|grazie mille|cordiali saluti|distinti saluti|saluti|a presto|un saluto|obrigad[oa]|muito obrigad[oa]|cumprimentos|com os melhores cumprimentos|melhores cumprimentos|atenciosamente|abraco|abracos|valeu|ate logo|beijos)\b(?:\s+[\p{L}'’]+){0,3}[\s,.!]*$/u;
/** A request to the reader: it asks for the form, it is not one of its fields. */
const REQUEST = /^(?:(?:hi|hey)\s+)?(?:(?:quick one|quick question)\s*[-,:]?\s*)?(?:could|can|would|will) (?:you|u|ya)\b|^(?:(?:nos|me|mi|ci|nous|me)\s+)?(?:podrias|puedes|consegue|mi prepari|mi crei|me haces|podria usted|pourrais[- ]tu|pourriez[- ]vous|tu peux|peux[- ]tu|pouvez[- ]vous|konntest du|kannst du|konnten sie|konnen sie|potresti|puoi|mi fai|potrebbe|potete|pode|podes|podia|voce pode|voces podem|consegues)\b/;
/** "Please make an expense claim form.", "Following our call, we need a tenancy application for the flat." */
const INTRO = /^(?:[^,]{0,40},\s*)?(?:please\s+)?(?:(?:i|we)\s+(?:need|want|would like)|(?:please\s+)?(?:make|create|prepare|set up|build)|necesito|necesitamos|nous avons besoin|il nous faut|il nous faudrait|merci de (?:preparer|creer|faire)|wir brauchen|wir benotigen|ich brauche|bitte (?:erstellt|erstellen sie|macht)|ci serve|mi serve|abbiamo bisogno|vi chiedo|preciso|precisamos|necessitamos)\b/;
const MAKE = /\b(?:set up|make|create|prepare|whip up|put together|build|draft|design|do|hac\w*|prepar\w*|cre[ae]\w*|faire|fai|fare|fazer|faz|montar|monter|erstell\w*|anleg\w*|mach\w*|criar)\b/;
/** "Details below.", "Necesitamos un formulario con lo siguiente.": points at what follows, names no field. */
const POINTS_BELOW = /(?:\bbelow|\bthe following|lo siguiente|a continuacion|ce qui suit|ci-dessous|folgende(?:n|m)? angaben|unten|quanto segue|qui sotto|di seguito|o seguinte|abaixo|os dados|los datos|les infos|i dati|the details|lo que hablamos|what we discussed|ce dont on a parle|was wir besprochen haben|quello che ci siamo detti|o que falamos|o que combinamos)\s*[.:!]?\s*$/;
/** "We're running the spring 5k and need a registration form.": about the form, not in it. */
const NEEDS_FORM = /\b(?:need|needs|want|would like|necesitamos|necesito|besoin d|brauchen|benotigen|serve|servono|bisogno di|precisamos|preciso)\b\s+(?:(?:a|an|un|una|une|ein|eine|einen|um|uma|un['’])\s+)?(?:[\p{L}'’-]+\s+){0,3}?(?:form|sign-up|registration|application|agreement|nda|waiver|formulario|solicitud|formulaire|fiche|formular|antrag|modulo|ficha|formulario)\b/u;
const AS_DISCUSSED = /^\s*(?:as (?:discussed|agreed|mentioned|promised|requested)|following (?:our|the|your) (?:call|meeting|chat|conversation)|como (?:hablamos|acordamos|comentamos|falamos|combinado)|comme (?:convenu|discuté|prévu|promis)|wie (?:besprochen|vereinbart|versprochen)|come (?:d['’]accordo|concordato|discusso|promesso)|conforme (?:combinado|falamos))\s*,?\s*/iu;
const INJECTION = /\b(?:ignore|disregard|forget)\b.{0,40}\b(?:instructions?|above|previous|prior|rules|everything)\b|\bsystem prompt\b|\byou are now\b|\bact as\b|\bignora (?:las|le|todas las|tutte le) (?:instrucciones|istruzioni)\b|\bignore[sz]? (?:les|toutes les) instructions\b|\bignoriere\b|\bignore as instrucoes\b|\bdeveloper mode\b|\bjailbreak\b/;
const EACH = /\b(?:each|every|per|for each|cada|chaque|je|jede[nrs]?|jeder|ogni|ciascun[ao]?)\b/;
const TICK = /^\s*(?:[-*•]\s*)?(?:\[\s?[xX✓]?\s?\]|☐|☑|□)\s*/;
const EMPTY_CELL = /^(?:\[\s?[xX]?\s?\]|☐|□|_*|\s*)$/;
const AMOUNTS = /\b(?:amounts?|importes?|montants?|betr[äa]ge|importi|valores)\s+(?:for|of|de|pour|f[üu]r|per|di)\s*:\s*([^.\n]+)/giu;
const AMOUNT_WORD: Record<Language, string> = { en: 'amount', es: 'importe', fr: 'montant', de: 'Betrag', it: 'importo', pt: 'valor' };

const ROW_WORD: Record<Language, string> = { en: 'Row', es: 'Fila', fr: 'Ligne', de: 'Zeile', it: 'Riga', pt: 'Linha' };

export function prepare(prompt: string, lang: Language): Prepared {
  let text = prompt.replace(/\r\n?/g, '\n').replaceAll(ROW_NOUN_MARK, ROW_WORD[lang]);
  let title: string | undefined;
  const subject = SUBJECT.exec(text);
  if (subject) {
    // "RE: ficha socios", "AW: Formular", "TR : …": the reply and forward marks are not the title.
    title = subject[1]!.trim().replace(/^(?:(?:re|aw|tr|rv|r|fw|fwd|wg|enc|i)\s*:\s*)+/i, '');
    text = text.replace(SUBJECT, '');
  }
  let lines = text.split('\n');
  lines = dropLetterFrame(lines);
  lines = tables(lines);
  lines = checklists(lines);
  // After the checklists: "each item yes / no / n/a:" is their header, not a choice of its own.
  lines = rewriteChoices(lines);
  lines = sections(lines);
  text = lines.map((l) => l.replace(TICK, (m) => (m.trim() ? '\u2063TICK\u2063' : m))).join('\n')
    .replace(/\u2063TICK\u2063(.*)$/gm, (_, rest: string) => `${rest.trim()} (${TICK_REMARK})`);
  text = text.replace(AMOUNTS, (_, list: string) => list.split(/\s*[,;]\s*|\s+(?:and|y|et|und|e)\s+/).filter(Boolean)
    .map((x) => `${x.trim()} (${AMOUNT_WORD[lang]})`).join(', '));
  // Sentences that ask for the form, or try to instruct the generator, are not fields.
  const kept: string[] = [];
  // Any sentence end splits here (people start sentences in lower case): the pieces are joined again.
  for (const whole of text.split(/(?<=[.!?])[ \t]+(?=[\p{L}¿¡])|(?<=\n)/u)) {
    // "As discussed, we keep losing laptops.": the context of the request goes.
    const sentence = whole.replace(AS_DISCUSSED, '');
    if (!sentence.trim()) continue;
    const f = fold(sentence.trim()).replace(/^[¿¡]/, '');
    if (/^(?:we|i|our|nous|wir|noi|nos|nosotros)\s+(?:keep|always|often|had|have had|kept|sometimes)\b/.test(f) && !/[:,]/.test(sentence)) continue;
    if (INJECTION.test(f)) continue;
    if (POINTS_BELOW.test(f) && f.split(/\s+/).length <= 12 && !/,/.test(f)) {
      title ??= formPhrase(sentence);
      continue;
    }
    // "Regards, Lena" at the end of a one-line message: the rest is the sender.
    if (SIGN_OFF.test(f.split(',')[0]!.trim()) && f.split(/\s+/).length <= 5 && kept.length > 0) break;
    if (REQUEST.test(f) && /\?\s*$/.test(sentence.trim()) && !/:/.test(sentence) && (MAKE.test(f) || formPhrase(sentence) !== undefined)) {
      title ??= formPhrase(sentence);
      continue;
    }
    if (NEEDS_FORM.test(f) && !/:/.test(sentence) && !sentence.split(/,|\band\b|\by\b|\bet\b|\bund\b|\be\b/).some((x) => namesAField(fold(x.trim())))) {
      title ??= formPhrase(sentence);
      continue;
    }
    // "We need: name, size …" is the list itself, not a request.
    if (INTRO.test(f) && /[.!]\s*$/.test(sentence.trim()) && !/[:,]\s*\S+\s*,/.test(sentence) && !/:\s*\S/.test(sentence) && !/\b(?:with|including|where|that|which|con|avec|mit|wo|donde|dove|onde|ou|y|and|et|und|e)\b/.test(f.replace(/^[^,]{0,40},/, ''))) {
      title ??= formPhrase(sentence);
      continue;
    }
    kept.push(sentence);
  }
  text = kept.join(' ').replace(/[ \t]+\n/g, '\n');
  return title === undefined ? { text } : { text, title };
}

/** "Could you set up a volunteer sign-up for the beach clean-up?" → "Volunteer sign-up". */
function formPhrase(sentence: string): string | undefined {
  const named = titleFromText(sentence);
  if (named) return named;
  const m = /\b(?:a|an|the|un|una|une|um|uma|ein|eine|einen|un['’])\s+((?:[\p{L}'’-]+\s+){0,3}?(?:form|sign-up|application|agreement|nda|waiver|claim|formulario|solicitud|acuerdo|contrato|formulaire|fiche|dossier|accord|formular|antrag|vereinbarung|modulo|domanda|accordo|formulário|ficha|acordo|inscripción|inscription|anmeldung|iscrizione|inscrição)(?![\p{L}])(?:\s+(?:de|d['’]|di|da|do|für|pour|para|per|for)\s+[\p{L}'’-]+(?:\s+[\p{L}'’-]+)?)?)/iu.exec(sentence);
  return m ? m[1]!.replace(/\s+for\s+(?:the|our|a)\s+.*$/i, '') : undefined;
}

/** Drops the greeting line and everything from the sign-off on: "Thanks,\nRachel". */
export function dropLetterFrame(lines: string[]): string[] {
  const out = [...lines];
  const first = out.findIndex((l) => l.trim() !== '');
  if (first >= 0) {
    // "Dear all, please put together …": the greeting goes, the request stays.
    const inline = /^((?:hi|hello|hey|dear|hola|bonjour|salut|hallo|ciao|olá|ola|oi)(?![\p{L}])[^,:!\n]{0,25})[,:!]\s+(?=\S)/iu.exec(out[first]!.trim());
    if (inline && GREETING.test(fold(inline[1]!))) {
      out[first] = out[first]!.trim().slice(inline[0].length);
      // "Olá equipe, tudo bem?", "Hi Sam, how are you?": small talk after the greeting, a short question naming no field.
      const smallTalk = /^([^?.!\n]{1,25}\?)\s*/.exec(out[first]!);
      if (smallTalk && smallTalk[1]!.split(/\s+/).length <= 4 && !namesAField(fold(smallTalk[1]!))) out[first] = out[first]!.slice(smallTalk[0].length);
    }
    const f = fold(out[first]!.trim());
    // "Madame, Monsieur,", "Bom dia, pessoal,": a short line that greets and ends like a greeting goes whole.
    const greetingLine = GREETING.test(f) && f.split(/\s+/).length <= 6 && /[,!:]\s*$/.test(f);
    if (greetingLine || (GREETING.test(f) && f.split(/\s+/).length <= 6 && !/[:;]\s*\S/.test(f.replace(/[,:!]\s*$/, '')) && !/,\s*\S.*,/.test(f))) out[first] = '';
  }
  for (let i = first + 1; i < out.length; i++) {
    if (SIGN_OFF.test(fold(out[i]!.trim()))) return out.slice(0, i);
  }
  return out;
}

/** "Item | OK | Needs repair" then "Brakes | [ ] | [ ]": one choice per row between the columns. */
function tables(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const cells = splitRow(lines[i]!);
    // "Plan: basic | plus | pro" is a choice (choices.ts), not a table's header.
    if (cells.length < 2 || /:/.test(cells[0]!) || i + 1 >= lines.length || splitRow(lines[i + 1]!).length !== cells.length) { out.push(lines[i]!); continue; }
    const columns = cells.slice(1);
    let j = i + 1;
    for (; j < lines.length; j++) {
      const row = splitRow(lines[j]!);
      if (row.length !== cells.length) break;
      if (/^[-:\s|]+$/.test(lines[j]!)) continue;
      const values = row.slice(1);
      if (values.every((v) => EMPTY_CELL.test(v))) out.push(`${row[0]} (${columns.join(', ')})`);
      else out.push(...columns.map((c, k) => `${row[0]} ${c}${values[k] ? ` (${values[k]})` : ''}`).map((x) => `${x},`));
    }
    i = j - 1;
  }
  return out;
}

function splitRow(line: string): string[] {
  if (!line.includes('|')) return [];
  return line.replace(/^\s*\||\|\s*$/g, '').split('|').map((c) => c.trim());
}

/**
 * "For each room give the condition (good, fair or poor):" then one item per line, or "Rate each of
 * the following as excellent, good, fair or poor: staff; cleanliness": one choice per item.
 */
function checklists(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const at = line.lastIndexOf(':');
    const parts = line.slice(0, at >= 0 ? at : line.length).split(/(?<=[.!?])\s+/);
    const header = parts[parts.length - 1] ?? '';
    const options = at >= 0 && EACH.test(fold(header)) ? choicesIn(header) : undefined;
    if (!options) { out.push(line); continue; }
    if (parts.length > 1) out.push(parts.slice(0, -1).join(' '));
    const inline = line.slice(at + 1).trim();
    const withChoices = (item: string): string => `${item.trim().replace(/[.;,]+$/, '')} (${options.join(', ')})`;
    if (inline) {
      const end = inline.search(/[.!?](?:\s|$)/);
      const list = end >= 0 ? inline.slice(0, end) : inline;
      out.push(list.split(/\s*;\s*|\s*,\s*/).filter(Boolean).map(withChoices).join('; '));
      if (end >= 0 && inline.slice(end + 1).trim()) out.push(inline.slice(end + 1).trim());
      continue;
    }
    let j = i + 1;
    for (; j < lines.length; j++) {
      const item = lines[j]!.trim().replace(/^[-*•]\s*/, '');
      if (!item || /[.:,;?]/.test(item) || item.split(/\s+/).length > 6) break;
      out.push(withChoices(item));
    }
    i = j - 1;
  }
  return out;
}

/** The choices a checklist header names: in parentheses, after "as"/"como"/"mit", or after "each item". */
function choicesIn(header: string): string[] | undefined {
  const paren = /\(([^()]+)\)/.exec(header);
  const tail = paren ? paren[1]! : (/^.*(?:\bas|\bcomo|\bcomme|\bmit|\bcome|\bcon|\bitem|\bpunto|\bpoint|\bpunkt|\bvoce|\bponto)\s+(.+?)\s*$/iu.exec(header)?.[1] ?? '');
  // "yes / no / n/a": spaced slashes separate, a bare one belongs to the choice.
  const slash = /\s\/\s/.test(tail) ? /\s+\/\s+/ : /\s*\/\s*/;
  const list = tail.split(new RegExp(`\\s*,\\s*|\\s+(?:or|o|ou|oder)\\s+|${slash.source}`)).map((s) => s.trim()).filter(Boolean);
  return list.length >= 2 && list.every((s) => s.split(/\s+/).length <= 3) ? list : undefined;
}

/** "Personal details:" alone on a line, followed by bullets, heads a section. */
function sections(lines: string[]): string[] {
  const firstContent = lines.findIndex((l) => l.trim() !== '');
  return lines.map((l, i) => {
    const m = /^\s*(?:#+\s*)?([^:,.;|]{2,40}):\s*$/.exec(l);
    const next = lines.slice(i + 1).find((x) => x.trim() !== '');
    if (!m || i === firstContent || next === undefined || !/^\s*(?:[-*•·]|\d{1,2}[.)])\s+/.test(next)) return l;
    return `${SECTION_MARK}${m[1]!.trim()}`;
  });
}
