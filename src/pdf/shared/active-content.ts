// A document people sign must not change itself or call out. Removed here: JavaScript (document,
// page, field and bookmark actions, /OpenAction, /AA, the /JavaScript name tree), /Launch, /SubmitForm,
// /ImportData, /GoToR and /GoToE actions (and /Rendition, which can carry a script), and embedded files
// (the /EmbeddedFiles name tree and file-attachment annotations). Visible content is untouched: page
// contents, appearances and plain links (/URI, /GoTo) stay. The import reports what it removed; the
// renderer runs the same pass on templates stored before this existed.
import { PDFArray, PDFDict, PDFName, PDFRef, PDFStream, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';

export type ActiveKind = 'script' | 'launch' | 'data' | 'remote' | 'file';

export type RemovedContent = Record<ActiveKind, number>;

const ACTIONS: Readonly<Record<string, ActiveKind>> = {
  JavaScript: 'script',
  Rendition: 'script',
  Launch: 'launch',
  SubmitForm: 'data',
  ImportData: 'data',
  GoToR: 'remote',
  GoToE: 'remote',
};

const S = PDFName.of('S');
const NEXT = PDFName.of('Next');
const ACTION_KEYS = [PDFName.of('A'), PDFName.of('OpenAction')];
const AA = PDFName.of('AA');
const SUBTYPE = PDFName.of('Subtype');
const FILE_ATTACHMENT = PDFName.of('FileAttachment');
const NAMES = PDFName.of('Names');
const JAVASCRIPT_TREE = PDFName.of('JavaScript');
const EMBEDDED_FILES_TREE = PDFName.of('EmbeddedFiles');
// A file specification's embedded streams, and the associated files (PDF 2.0) that point at them.
const EF = PDFName.of('EF');
const AF = PDFName.of('AF');
const ANNOTS = PDFName.of('Annots');
// Direct objects nest; hostile ones nest deep. Nothing legitimate hides an action this far down.
const MAX_DEPTH = 32;

const none = (): RemovedContent => ({ script: 0, launch: 0, data: 0, remote: 0, file: 0 });

/** The dangerous kinds in an action and the chain of actions that follow it (/Next). */
function kindsIn(doc: PDFDocument, action: PDFObject | undefined, seen = new Set<PDFObject>()): ActiveKind[] {
  const dict = action instanceof PDFRef ? doc.context.lookup(action) : action;
  if (!(dict instanceof PDFDict) || seen.has(dict) || seen.size > MAX_DEPTH) return [];
  seen.add(dict);
  const type = dict.lookup(S);
  const own = type instanceof PDFName ? ACTIONS[type.decodeText()] : undefined;
  const next = dict.get(NEXT);
  const following = next instanceof PDFArray ? next.asArray().flatMap((a) => kindsIn(doc, a, seen)) : kindsIn(doc, next, seen);
  return own ? [own, ...following] : following;
}

function countNames(doc: PDFDocument, tree: PDFObject | undefined, depth = 0): number {
  const dict = tree instanceof PDFRef ? doc.context.lookup(tree) : tree;
  if (!(dict instanceof PDFDict) || depth > MAX_DEPTH) return 0;
  const names = dict.lookup(NAMES);
  let n = names instanceof PDFArray ? Math.floor(names.size() / 2) : 0;
  const kids = dict.lookup(PDFName.of('Kids'));
  if (kids instanceof PDFArray) for (const kid of kids.asArray()) n += countNames(doc, kid, depth + 1);
  return Math.max(n, 1);
}

/** Strips the actions from one dictionary (and the direct objects inside it). */
function cleanDict(doc: PDFDocument, dict: PDFDict, removed: RemovedContent, depth: number): void {
  for (const key of ACTION_KEYS) {
    const kinds = kindsIn(doc, dict.get(key));
    if (kinds.length === 0) continue;
    for (const kind of kinds) removed[kind]++;
    dict.delete(key);
  }
  const aa = dict.get(AA);
  const triggers = aa instanceof PDFRef ? doc.context.lookup(aa) : aa;
  if (triggers instanceof PDFDict) {
    for (const [trigger, action] of triggers.entries()) {
      const kinds = kindsIn(doc, action);
      for (const kind of kinds) removed[kind]++;
      if (kinds.length > 0) triggers.delete(trigger);
    }
    if (triggers.keys().length === 0) dict.delete(AA);
  }
  // Embedded files are counted once each, where their file specification holds them.
  if (dict.has(EF)) {
    dict.delete(EF);
    removed.file++;
  }
  dict.delete(AF);
  const annots = dict.get(ANNOTS);
  const list = annots instanceof PDFRef ? doc.context.lookup(annots) : annots;
  if (list instanceof PDFArray) {
    for (let i = list.size() - 1; i >= 0; i--) {
      const annot = list.lookup(i);
      if (annot instanceof PDFDict && annot.get(SUBTYPE) === FILE_ATTACHMENT) list.remove(i);
    }
  }
  for (const [, value] of dict.entries()) cleanDirect(doc, value, removed, depth + 1);
}

function cleanDirect(doc: PDFDocument, obj: PDFObject, removed: RemovedContent, depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (obj instanceof PDFDict) cleanDict(doc, obj, removed, depth);
  else if (obj instanceof PDFArray) for (const item of obj.asArray()) cleanDirect(doc, item, removed, depth + 1);
}

/** Everything reachable from the trailer; the rest is what removing active content left behind. */
function dropUnreachable(doc: PDFDocument): void {
  const { context } = doc;
  const reached = new Set<PDFRef>();
  const stack: PDFObject[] = [context.trailerInfo.Root, context.trailerInfo.Info].filter((o): o is PDFObject => o !== undefined);
  while (stack.length > 0) {
    const obj = stack.pop()!;
    if (obj instanceof PDFRef) {
      if (reached.has(obj)) continue;
      reached.add(obj);
      const target = context.lookup(obj);
      if (target) stack.push(target);
    } else if (obj instanceof PDFDict) {
      for (const [, value] of obj.entries()) stack.push(value);
    } else if (obj instanceof PDFStream) {
      stack.push(obj.dict);
    } else if (obj instanceof PDFArray) {
      stack.push(...obj.asArray());
    }
  }
  for (const [ref] of context.enumerateIndirectObjects()) if (!reached.has(ref)) context.delete(ref);
}

/** Removes active content in place; returns how much of each kind was removed. */
export function removeActiveContent(doc: PDFDocument): RemovedContent {
  const removed = none();
  const names = doc.catalog.lookupMaybe(NAMES, PDFDict);
  if (names?.has(JAVASCRIPT_TREE)) {
    removed.script += countNames(doc, names.get(JAVASCRIPT_TREE));
    names.delete(JAVASCRIPT_TREE);
  }
  names?.delete(EMBEDDED_FILES_TREE);
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (obj instanceof PDFDict) cleanDict(doc, obj, removed, 0);
    else if (obj instanceof PDFStream) cleanDict(doc, obj.dict, removed, 0);
  }
  if (Object.values(removed).some((n) => n > 0)) dropUnreachable(doc);
  return removed;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** One sentence for the template's warnings, or undefined when nothing was removed. */
export function describeRemoved(removed: RemovedContent): string | undefined {
  const parts = [
    removed.script > 0 ? plural(removed.script, 'script (JavaScript action)', 'scripts (JavaScript actions such as calculations, formatting or actions on opening)') : '',
    removed.launch > 0 ? plural(removed.launch, 'action that launches a program or file', 'actions that launch programs or files') : '',
    removed.data > 0 ? plural(removed.data, 'action that submits or imports form data', 'actions that submit or import form data') : '',
    removed.remote > 0 ? plural(removed.remote, 'link into another document', 'links into other documents') : '',
    removed.file > 0 ? plural(removed.file, 'embedded file', 'embedded files') : '',
  ].filter((p) => p !== '');
  if (parts.length === 0) return undefined;
  return `Removed active content so that the document cannot change itself or contact other servers: ${parts.join(', ')}. The visible pages are unchanged.`;
}
