// The line segmenter: what people paste is classified line by line before any field is read. Noise
// goes (an e-mail's header block, forwarding markers, quoted replies and their "On … wrote:" line, the
// e-mail signature after "--", chat timestamps and speakers, the other side's "ok"/"thanks"), headings
// become section marks ("Section B — Employment", "PARTE 2", a numbered heading, a line in capitals),
// and a paper form's blanks are read: "Label: ____" is the label, "Label:" over two or more blank
// lines is long free text, "Signature …: ____ Date: __/__/____" is a signature and its date. By
// structure, in any of the six languages: nothing here depends on the description's language.
import { ROW_MARK, ROW_NOUN_MARK } from './choices.js';
import { punctuateDictation } from './dictation.js';
import { fold } from './lexicon.js';
import { dropLetterFrame, SECTION_MARK, SIGN_OFF } from './prepare.js';
import { namesAField } from './segment.js';

/** Put after a label whose blank spans several lines: long free text. */
export const LONG_MARK = '\u2064long';
/** Stands for "the date next to this signature". */
export const DATE_SIGNED_MARK = '\u2064date-signed';

/** Header keys of the mail programs in the six languages ("From:", "Von:", "De :", "Da:", "Enviado el:"). */
const HEADER_KEY = /^\s*(?:from|sent|to|cc|bcc|date|reply-to|subject|de|enviado(?: el| em)?|enviada em|para|asunto|fecha|envoy[ée]|[àa]|objet|von|gesendet|an|betreff|datum|da|inviato|oggetto|data|assunto|cco)\s*:\s*\S/iu;
const SUBJECT_KEY = /^\s*(?:subject|asunto|objet|betreff|oggetto|assunto)\s*:/i;
const FORWARD = /^\s*-{2,}\s*(?:forwarded message|original message|mensaje (?:reenviado|original)|message (?:transf[ée]r[ée]|d['’]origine)|weitergeleitete nachricht|urspr[üu]ngliche nachricht|messaggio (?:inoltrato|originale)|mensagem (?:encaminhada|original))\s*-{2,}\s*$/i;
/** "On Mon, 2 Mar 2026 at 17:05, Ana <a@b.c> wrote:" in the six languages. */
const ATTRIBUTION = /(?:wrote|escribi[óo]|a [ée]crit|schrieb(?:\s.*)?|ha scritto|escreveu)\s*:\s*$/i;
/** "[09:14] Ana: …", "09:14 - Ana: …", "[03/03/2026, 09:14] Ana: …". */
const CHAT = /^\s*\[?(?:\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4},?\s*)?\d{1,2}[:.]\d{2}(?:[:.]\d{2})?(?:\s*[ap]\.?m\.?)?\]?\s*(?:[-–]\s*)?([^:\n]{1,30}?):\s+(.*)$/i;
const SECTION_WORD = /^\s*(?:#+\s*)?(?:section|part|parte|partie|abschnitt|teil|sezione|se[cç][cç]?[aã]o|secci[oó]n|bloque|bloc|block)\s+(?:[A-Z]|\d{1,2}|[IVX]{1,4})\b\s*[-–—:.)]?\s*(.*)$/iu;
const NUMBERED = /^\s*(\d{1,2})[.)]\s+(\p{L}[^:_|]{1,60}?)\s*:?\s*$/u;
const BLANK = /_{3,}/;
const ONLY_BLANK = /^[\s_./-]*_{3,}[\s_./-]*$/;
const DATE_BLANK = /_{1,}\s*\/\s*_{1,}\s*\/\s*_{2,}|\b(?:dd|jj|tt|gg)\s*\/\s*mm\s*\/\s*(?:yyyy|aaaa|jjjj|yy|aa)\b/i;
const SIGNATURE_WORD = /\b(?:signature|signed|firma|unterschrift|assinatura)\b/;
const DATE_WORD = /^(?:date|fecha|datum|data|le|em|am|on|place and date|place,? date|lieu et date|lieu,? date|fait a|ort,? datum|lugar y fecha|lugar,? fecha|luogo e data|luogo,? data|local e data|local,? data)$/;

/** The pasted text with its noise gone and its headings and blanks marked. */
export function segmentLines(text: string): string {
  let lines = text.replace(/\r\n?/g, '\n').split('\n');
  lines = thread(lines);
  lines = dropHeaders(lines);
  lines = dropQuotes(lines);
  lines = dropMailSignature(lines);
  lines = speakerLines(lines);
  lines = chat(lines);
  // Speech typed out: its commas and full stops back before any line is read.
  lines = punctuateDictation(lines.join('\n')).split('\n');
  lines = gridRows(lines).map((l) => l.replace(SIGNATURE_NOTE, (_, sp: string, who: string, word: string) => `${sp}${word.charAt(0).toUpperCase()}${word.slice(1)} ${who.trim()}:`));
  lines = headings(lines);
  lines = blanks(lines);
  return lines.join('\n');
}

/**
 * A thread of e-mails (a reply above the message it answers, "-----Original Message-----", "On … wrote:",
 * a second header block, a quoted block "> …"): each message loses its header, greeting, sign-off,
 * sender and e-mail signature, a message that names no field ("Sure, send me what you need") goes,
 * and the rest are read oldest first: the request, then what the replies add to it.
 */
function thread(lines: string[]): string[] {
  const messages: string[][] = [[]];
  let depth = 0;
  let headers = 0;
  const start = (): void => { if (messages[messages.length - 1]!.some((l) => l.trim() !== '')) messages.push([]); };
  for (const line of lines) {
    if (FORWARD.test(line)) { start(); continue; }
    if (ATTRIBUTION.test(line)) { start(); continue; }
    const quote = /^\s*((?:>\s?)+)/.exec(line);
    const d = quote ? quote[1]!.replace(/\s/g, '').length : 0;
    if (line.trim() !== '' && d !== depth) { start(); depth = d; }
    const plain = quote ? line.slice(quote[0].length) : line;
    // A second header block ("From: … Sent: …") starts the message it heads.
    headers = HEADER_KEY.test(plain) ? headers + 1 : 0;
    if (headers === 1 && messages[messages.length - 1]!.some((l) => l.trim() !== '' && !HEADER_KEY.test(l))) start();
    messages[messages.length - 1]!.push(plain);
  }
  if (messages.length < 2) return lines;
  const read = messages.map((m) => {
    const kept = dropHeaders(m);
    // The subject stays for the title; the frame is read without it.
    const subject = kept.filter((l) => SUBJECT_KEY.test(l));
    return { subject, body: dropSender(dropLetterFrame(dropMailSignature(kept.filter((l) => !SUBJECT_KEY.test(l))))).map(dropInlineSignOff) };
  });
  const kept = read.filter((m) => namesSomething(m.body));
  // The newest message's subject is the thread's title.
  return [...read[0]!.subject.slice(0, 1), '', ...kept.reverse().flatMap((m) => [...m.body, ''])];
}

/** "… da firmare online? Grazie, Andrea Martini": a sign-off ending a line, and the sender after it. */
function dropInlineSignOff(line: string): string {
  const sentences = line.split(/(?<=[.!?])\s+/);
  const last = sentences[sentences.length - 1] ?? '';
  if (sentences.length < 2 || !SIGN_OFF.test(fold(last.split(',')[0]!.trim())) || last.split(/\s+/).length > 5) return line;
  return sentences.slice(0, -1).join(' ');
}

/** Whether a message names a field, a choice, a blank or a signer: else it is talk ("Klar, schick mir einfach, was du brauchst."). */
function namesSomething(lines: string[]): boolean {
  return lines.some((l) => BLANK.test(l) || /[|☐□]|\[\s?\]/.test(l) || SIGNATURE_WORD.test(fold(l)) || /\b(?:sign|firm|unterschreib|unterzeichn|assin)/.test(fold(l))
    || l.split(/\s*[,;:.!?]\s*|\s+(?:and|y|et|und|e)\s+/).some((piece) => !SUBJECT_KEY.test(piece) && piece.trim() !== '' && namesAField(fold(piece.trim()))));
}

/** The sender's name (and what follows it: their company, address, number) at the end of a message: "Gareth", "Pierre". */
function dropSender(lines: string[]): string[] {
  const content = lines.map((l, i) => ({ l: l.trim(), i })).filter((x) => x.l !== '');
  for (const { l, i } of content.slice(-4)) {
    if (/^\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’.-]*){0,2}$/u.test(l) && !namesAField(fold(l)) && !HEADER_KEY.test(l)) return lines.slice(0, i);
  }
  return lines;
}

/** A run of two or more header lines ("From:", "Sent:", "To:"), or one naming an address, is no field; the subject stays for the title. */
function dropHeaders(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (FORWARD.test(lines[i]!)) continue;
    let j = i;
    while (j < lines.length && HEADER_KEY.test(lines[j]!)) j++;
    const run = lines.slice(i, j);
    if (run.length >= 2 || (run.length === 1 && /@|<[^>]*>/.test(run[0]!))) {
      out.push(...run.filter((l) => SUBJECT_KEY.test(l)));
      i = j - 1;
      continue;
    }
    out.push(lines[i]!);
  }
  return out;
}

/** Quoted lines ("> …") and the line that introduces them. */
function dropQuotes(lines: string[]): string[] {
  return lines.filter((l, i) => !/^\s*>/.test(l) && !(ATTRIBUTION.test(l) && (lines.slice(i + 1).find((x) => x.trim() !== '') ?? '>').trim().startsWith('>')));
}

/** "--" (or "-- ") then the sender's name, title and numbers, up to the next empty line. */
function dropMailSignature(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*--\s*$/.test(lines[i]!)) {
      while (i + 1 < lines.length && lines[i + 1]!.trim() !== '') i++;
      continue;
    }
    out.push(lines[i]!);
  }
  return out;
}

/** "Maya Chen  10:42 AM" over the lines said (Slack, Teams): each line said becomes "[10:42] Maya Chen: …". */
function speakerLines(lines: string[]): string[] {
  const SPEAKER = /^\s*([\p{L}][\p{L}'’ .()-]{0,40}?)\s*[,·|-]?\s+(\d{1,2}:\d{2}(?:\s*[AaPp]\.?[Mm]\.?)?)\s*$/u;
  if (lines.filter((l) => SPEAKER.test(l)).length < 2) return lines;
  const out: string[] = [];
  let who: string | undefined;
  for (const l of lines) {
    const m = SPEAKER.exec(l);
    if (m) { who = `[${m[2]}] ${m[1]!.trim()}`; continue; }
    out.push(who && l.trim() !== '' ? `${who}: ${l.trim()}` : l);
  }
  return out;
}

/**
 * A chat log (two or more "[09:14] Ana: …" lines): the timestamps and speakers go; what the first
 * speaker (who asks for the form) writes is kept, and the others' lines only when they name a field.
 */
function chat(lines: string[]): string[] {
  const said = lines.map((l) => CHAT.exec(l));
  if (said.filter(Boolean).length < 2) return lines;
  const first = said.find(Boolean)![1]!.trim();
  const out: string[] = [];
  lines.forEach((l, i) => {
    const m = said[i];
    if (!m) { out.push(l); return; }
    const who = m[1]!.trim();
    const what = m[2]!.trim();
    // The others answer ("sure thing", "who signs?", "can you paste this into that formsign thing"): their
    // lines count only when they name a field.
    if (who !== first && !what.split(/\s*[,;.!?]\s*/).some((x) => x && namesAField(fold(x)))) return;
    // "@Jens kannst du das als Online-Formular machen": a line to someone else that names no field.
    if (/^@\S+/.test(what) && !what.split(/\s*[,;.!?]\s*/).some((x) => x && namesAField(fold(x)))) return;
    out.push(what);
  });
  return out;
}

const isContent = (l: string | undefined): boolean => l !== undefined && l.trim() !== '' && !ONLY_BLANK.test(l);

const INDEX_CELL = /^\s*(?:#|n[º°o.]*\s*\d*|nr\.?|no\.?|\d{1,2}[.)]?)\s*$/i;
const INDEX_HEADER = /^(?:#|n[º°o.]*|nr\.?|no\.?|pos\.?|line|item|row|linha|ligne|riga|fila|zeile|l[ií]nea|posten|position)$/i;
const EMPTY = /^[\s_.]*$/;

function cellsOf(line: string): string[] | undefined {
  if (line.includes('|')) return line.replace(/^\s*\||\|\s*$/g, '').split('|').map((c) => c.trim());
  if (line.includes('\t')) return line.split('\t').map((c) => c.trim());
  return undefined;
}

/**
 * A table of empty rows ("| Line | Description | Qty |" over "| 1 | | |" …, or tab-separated columns over
 * lines of tabs) is a repeated row: one field per row and column, "Line 1 Description". A line of
 * tab-separated labels that heads no such rows ("Name:<tab><tab>Monat/Jahr:") holds one field per cell.
 */
function gridRows(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const header = cellsOf(lines[i]!);
    // "Firma del residente        Firma del familiar        Firma de la dirección": columns set apart by runs of spaces.
    const spaced = lines[i]!.trim().split(/ {4,}/);
    if (!header && spaced.length >= 2 && !BLANK.test(lines[i]!) && !/[☐□]|\[\s?\]/.test(lines[i]!) && spaced.every((p) => p.split(/\s+/).length <= 8)) {
      out.push(...spaced);
      continue;
    }
    if (!header || header.filter((c) => c !== '').length < 2 || BLANK.test(lines[i]!)) {
      // Tab-separated labels on a line of their own: one line each.
      if (header && lines[i]!.includes('\t') && !lines[i]!.includes('|')) out.push(...header.filter((c) => !EMPTY.test(c)));
      else out.push(lines[i]!);
      continue;
    }
    let j = i + 1;
    let count = 0;
    let indexed = false;
    for (; j < lines.length; j++) {
      const l = lines[j]!;
      if (/^[\s|:-]+$/.test(l) && l.includes('-')) continue;
      const cells = l.includes('|') || l.includes('\t') ? cellsOf(l)! : l.trim() === '' ? undefined : [l.trim()];
      if (!cells) break;
      const values = INDEX_CELL.test(cells[0] ?? '') && cells.length > 1 ? cells.slice(1) : cells;
      if (values.length === cells.length - 1) indexed = true;
      if (!values.every((c) => EMPTY.test(c)) || (cells.length === 1 && !INDEX_CELL.test(cells[0]!))) break;
      count++;
    }
    const named = header.filter((c) => c !== '');
    if (count < 2) {
      if (lines[i]!.includes('\t') && !lines[i]!.includes('|')) out.push(...named);
      else out.push(lines[i]!);
      continue;
    }
    const first = header[0] ?? '';
    const dropFirst = first === '' || INDEX_HEADER.test(first.replace(/[.:]$/, '')) || (indexed && INDEX_CELL.test(first));
    const columns = (dropFirst ? header.slice(1) : header).filter((c) => c !== '').map((c) => c.replace(/\s*\([^()]*\)\s*$/, '').replace(/[:.]$/, ''));
    const noun = dropFirst && /^\p{L}{3,}$/u.test(first) ? first : ROW_NOUN_MARK;
    const n = Math.min(count, 10);
    if (columns.length === 0 || columns.length * n > 60) { out.push(lines[i]!); continue; }
    const cells: string[] = [];
    for (let r = 1; r <= n; r++) for (const c of columns) cells.push(`${noun} ${r} ${c} (${ROW_MARK})`);
    out.push(cells.join(', '));
    i = j - 1;
  }
  return out;
}

/** "Requested by (signature):", "Solicitado por (firma)": the label names who signs. */
const SIGNATURE_NOTE = /^(\s*)([^()\n]{2,60}?)\s*\((signature|firma|unterschrift|assinatura)\)\s*:?/iu;

/** Headings become section marks: a section word, a numbered heading over unnumbered lines, a line in capitals. */
function headings(lines: string[]): string[] {
  const firstContent = lines.findIndex((l) => l.trim() !== '');
  return lines.map((l, i) => {
    if (BLANK.test(l)) return l;
    const next = lines.slice(i + 1).find((x) => x.trim() !== '');
    if (next === undefined) return l;
    // "Section 1 - Applicant" heads its fields even as the first line.
    const word = SECTION_WORD.exec(l);
    if (word) return `${SECTION_MARK}${sectionLabel(word[1]!.trim() || l.trim())}`;
    if (i === firstContent) return l;
    // "Kundendaten" over "Firma: ____": a short line with no blank over a paper form's blank heads it.
    if (BLANK.test(next) && !l.includes(':') && l.trim().split(/\s+/).length <= 3 && !/^\s*[-*•·\d]/.test(l)) return `${SECTION_MARK}${sectionLabel(l.trim())}`;
    // "Dati del bambino: nome, cognome, data di nascita": a label naming no field over a list of fields heads them.
    const group = /^\s*([^:,.;|()]{2,40}):\s*(\S.*)$/u.exec(l);
    // (Not a repeated row: "Positionen 1–2: Beschreibung, Menge", "up to 3 children: name, date of birth".)
    if (group && !/\d/.test(group[1]!) && group[1]!.trim().split(/\s+/).length <= 4 && !namesAField(fold(group[1]!)) && /^\p{Lu}/u.test(group[1]!.trim())) {
      const items = group[2]!.split(/\s*,\s*/);
      if (items.length >= 2 && items.filter((x) => namesAField(fold(x))).length >= 2) return `${SECTION_MARK}${sectionLabel(group[1]!)}\n${group[2]!}`;
    }
    const numbered = NUMBERED.exec(l);
    // "3. Declaration" over unnumbered lines heads them; "1. Full name" then "2. Email" is a list.
    if (numbered && !/^\s*\d{1,2}[.)]\s/.test(next) && isContent(next) && numbered[2]!.split(/\s+/).length <= 5) return `${SECTION_MARK}${sectionLabel(numbered[2]!)}`;
    const letters = l.replace(/[^\p{L}]/gu, '');
    // A bullet in capitals ("- SIRET", "IBAN") is a field; a heading is a line of its own, two words or long.
    const words = l.trim().split(/\s+/).length;
    if (!/^\s*[-*•·]/.test(l) && (words >= 2 || letters.length >= 8) && letters === letters.toUpperCase() && letters !== letters.toLowerCase() && words <= 7 && !/[,;?]/.test(l)) {
      return `${SECTION_MARK}${sectionLabel(l.trim().replace(/[:.]$/, ''))}`;
    }
    return l;
  });
}

/** "PERSONAL DETAILS" → "Personal details"; "Employment" stays. */
function sectionLabel(raw: string): string {
  const s = raw.replace(/^[-–—:.\s]+|[-–—:.\s]+$/g, '');
  const letters = s.replace(/[^\p{L}]/gu, '');
  const t = letters === letters.toUpperCase() ? s.toLowerCase() : s;
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** A paper form's blanks: the labels stay, long blanks mark long free text, a date beside a signature is its date. */
function blanks(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (ONLY_BLANK.test(line)) continue;
    if (!BLANK.test(line) && !DATE_BLANK.test(line)) {
      // "Label:" over blank lines: two or more blank lines are a long answer.
      let k = i + 1;
      while (k < lines.length && ONLY_BLANK.test(lines[k]!)) k++;
      const blankLines = k - i - 1;
      if (blankLines > 0 && /:\s*$/.test(line)) {
        out.push(`${line.replace(/\s*:\s*$/, '')}${blankLines >= 2 ? ` (${LONG_MARK})` : ''}`);
        i = k - 1;
        continue;
      }
      out.push(line);
      continue;
    }
    // "Signature of the tenant: ________   Date: ___/___/____" → "Signature of the tenant, <date signed>".
    const parts = line.split(/\s*(?:_{2,}[\s_./-]*)+\s*/).map((p) => p.trim().replace(/\s*:\s*$/, '')).filter(Boolean);
    // "Ort, Datum: ____ Unterschrift Kunde: ____": a date on a signature's line is its date, before or after it.
    const signed = parts.some((p) => SIGNATURE_WORD.test(fold(p)));
    const dates = signed ? parts.filter((p) => DATE_WORD.test(fold(p))) : [];
    const read = [...parts.filter((p) => !dates.includes(p)), ...dates.map(() => DATE_SIGNED_MARK)];
    if (read.length === 0) continue;
    // "Date of birth: __/__/____": the blank says it is a date.
    const dated = !signed && DATE_BLANK.test(line) && read.length === 1 && !/\b(?:date|fecha|datum|data)\b/.test(fold(read[0]!)) ? ' (date)' : '';
    out.push(`${read.join(', ')}${dated}`);
  }
  return out;
}
