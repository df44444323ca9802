// The signing page's script (an ES module compiled for the browser: page-scripts.js). It draws the document's pages with
// pdf.js, puts a marker over every field (this signer's open a control, the others' are read-only),
// takes signatures drawn with signature_pad or typed in the script font, and submits JSON. It guides
// (Next field, progress, errors at each field by the server's own rules) and keeps the signer's
// progress in sessionStorage until they sign. Its words come from the page, in the signer's language
// (config.text, keys of src/lib/i18n/catalogues/en.ts). Pages are drawn as they scroll into view.
// Issue 43 item 4: the page boxes come from the server's page sizes and the first page from its
// picture (first-page.webp), so the signer works on the first page before pdf.js and the PDF arrive.

import type { PDFDocumentProxy, PDFPageProxy, RenderTask } from 'pdfjs-dist';
import type SignaturePadType from 'signature_pad';
import type { PageFieldConfig, SignPageConfig } from '../page-config.js';

type Rules = typeof import('../../../../domain/forms/value-rules.js');
type Logic = typeof import('../../../../domain/forms/field-logic.js');
type Pdfjs = typeof import('pdfjs-dist');
type Adopt = typeof import('./adopt-signature.js');
/** A signature given on this page: its preview, how it was made, and the PNG that is sent. */
interface SignatureImage { canvas: HTMLCanvasElement; method: 'drawn' | 'typed'; typed: string | null; dataUrl: string }
/** A field of this signer's, or the signature the seal's own page asks for (`OWN`). */
type Field = Pick<PageFieldConfig, 'name' | 'type' | 'required' | 'label'> & Partial<PageFieldConfig>;
type Value = string | boolean | SignatureImage | null;
/** A problem the page found with a field's value. */
export interface Problem { id: string; label: string; missing: boolean }

const byId = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;
const root = byId('signing');
const config = JSON.parse(root.dataset['config'] ?? '{}') as SignPageConfig;
/** The document's bytes, pdf.js and its worker, asked for once (loadPdf). */
interface PdfLoad { bytes: Promise<ArrayBuffer>; worker: Worker; module: Promise<Pdfjs> }
let pdfLoad: PdfLoad | undefined;
/**
 * The longest path to a drawn page is the document and pdf.js with its worker (which parses it): about
 * 650 KB for the 1040 over the network. With the first page's picture (config.first_page, issue 43
 * item 4) they are asked for once the signer sees that page and can work on its fields, so on a slow
 * phone they do not share the network with it; without one, at once, while the rest of the page is wired.
 */
function loadPdf(): PdfLoad {
  if (pdfLoad) return pdfLoad;
  const bytes = fetch(config.document, { credentials: 'same-origin' }).then((res) => {
    if (!res.ok) throw new Error(`the document answered ${res.status}`);
    return res.arrayBuffer();
  });
  const module = import(config.pdfjs) as Promise<Pdfjs>;
  // Until renderDocument takes them, a failure is its to report, not an unhandled rejection.
  bytes.catch(() => {});
  module.catch(() => {});
  return (pdfLoad = { bytes, worker: new Worker(config.pdfjsWorker, { type: 'module' }), module });
}
if (!config.first_page) loadPdf();
// The boxes the server laid out at each page's size (sign-html.ts pageBoxes) get their own aspect
// ratio and width in points (guided.ts's zoom) before anything else waits: the layout guided mode
// shows is the one that stays.
for (const wrap of document.querySelectorAll<HTMLElement>('#pages > .page[data-page]')) {
  const size = config.pages?.[Number(wrap.dataset['page']) - 1];
  if (!size) continue;
  wrap.style.aspectRatio = `${size[0]} / ${size[1]}`;
  wrap.style.setProperty('--pt-w', String(size[0]));
}
// The server's own value rules (one definition): the page checks with them before sending.
const rules = (await import(config.valueRules)) as Rules;
// Conditions and formulas (issue 41), by the server's own evaluator; only forms that have them load it.
const logic = config.fieldLogic ? ((await import(config.fieldLogic)) as Logic) : null;
const TEXT = config.text;
type Vars = Record<string, string | number>;
const fill = (template: string, vars: Vars): string => template.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k]));
/** The text of `key` in the page's language, placeholders filled. */
const t = (key: string, vars: Vars = {}): string => fill(TEXT[key] ?? key, vars);
// Document words (a label) inside a sentence of the page's run in their own direction (issue 43): in a
// string they are wrapped in FSI…PDI; shown in an element, that piece becomes a <bdi> (setIsolated).
const FSI = '\u2068';
const PDI = '\u2069';
const isolate = (words: string): string => `${FSI}${words}${PDI}`;
/** Shows `text` in `el`, each FSI…PDI piece as a <bdi> (the same isolation, without control characters in the text). */
function setIsolated(el: HTMLElement, text: string): void {
  el.replaceChildren(...text.split(/(\u2068[^\u2069]*\u2069)/).filter(Boolean).map((part) => {
    if (!part.startsWith(FSI)) return part;
    const b = document.createElement('bdi');
    b.textContent = part.slice(1, -1);
    return b;
  }));
}
const STORE_KEY = `formsign:progress:${location.pathname}`;
const form = byId<HTMLFormElement>('sign-form');
const formError = byId('form-error');
const docStatus = byId('doc-status');
const pagesEl = byId('pages');
const fieldsById = new Map(config.fields.map((f) => [f.id, f]));
/** Signature images by control id: { canvas (the preview), method, dataUrl }. */
const images = new Map<string, SignatureImage>();
const markers = new Map<string, HTMLElement>();

/** A page's size in PDF points as displayed (the server's, or pdf.js's viewport at scale 1). */
interface Size { width: number; height: number }
/** A page of the document: its place on the page, and what is drawn in it (its pdf.js page once loaded). */
interface Page { n: number; page: PDFPageProxy | null; base: Size; wrap: HTMLDivElement; canvas: HTMLCanvasElement | null; drawnWidth: number; task: RenderTask | null }

// ---------- the document ----------

/** Marks the page usable (bench/signing-*.bench.ts read the mark): once, at the first page shown. */
function markInteractive(): void {
  if (performance.getEntriesByName('formsign:interactive').length === 0) performance.mark('formsign:interactive');
}

/** A page's box: the one the server laid out (sign-html.ts), or a new one; its placeholder, canvas and markers. */
function layPage(n: number, total: number, base: Size): Page {
  let wrap = pagesEl.querySelector<HTMLDivElement>(`:scope > .page[data-page="${n}"]`);
  if (!wrap) {
    wrap = document.createElement('div');
    wrap.className = 'page pending';
    wrap.dataset['page'] = String(n);
    const placeholder = document.createElement('div');
    placeholder.className = 'page-placeholder';
    const spinner = document.createElement('span');
    spinner.className = 'spinner';
    spinner.setAttribute('aria-hidden', 'true');
    const label = document.createElement('span');
    label.textContent = t('sign.pageLoading', { page: n, total });
    placeholder.append(spinner, label);
    wrap.append(placeholder);
    pagesEl.append(wrap);
  }
  wrap.style.aspectRatio = `${base.width} / ${base.height}`;
  // Its width in PDF points, for a layout that sizes pages by a scale (guided.ts's zoom).
  wrap.style.setProperty('--pt-w', String(base.width));
  placeMarkers(wrap, n, base);
  return { n, page: null, base, wrap, canvas: null, drawnWidth: 0, task: null };
}

/** Resolves once the picture has loaded and been decoded (false: it failed; pdf.js draws the page instead). */
async function pictureShown(img: HTMLImageElement): Promise<boolean> {
  try {
    if (!img.complete) await new Promise<void>((resolve, reject) => {
      img.addEventListener('load', () => resolve(), { once: true });
      img.addEventListener('error', () => reject(new Error('the first page picture did not load')), { once: true });
    });
    if (img.naturalWidth === 0) return false;
    await img.decode();
    return true;
  } catch {
    return false;
  }
}

/** Waits until guided.ts has laid the page out (on a narrow screen, its sheet): the mark means the signer can work. */
async function layoutDecided(): Promise<void> {
  while (!root.classList.contains('guide-ready')) await new Promise((resolve) => requestAnimationFrame(resolve));
}

async function renderDocument() {
  let pages: Page[] | null = null;
  const sizes = config.pages;
  if (sizes) {
    // Issue 43 item 4: the boxes and markers from the server's page sizes, before any PDF byte.
    pages = sizes.map(([width, height], i) => layPage(i + 1, sizes.length, { width, height }));
    docStatus.textContent = sizes.length === 1 ? t('sign.pageCountOne') : t('sign.pageCount', { count: sizes.length });
    // Every marker is in place: guided.ts can show the open field's box.
    document.dispatchEvent(new CustomEvent('formsign:pages'));
    const img = pages[0]?.wrap.querySelector<HTMLImageElement>('img.page-image');
    if (img && (await pictureShown(img))) {
      // The signer sees the first page (its picture) with its markers, and the controls are wired:
      // usable. A frame later, so the picture has been painted when the mark is taken.
      await layoutDecided();
      await new Promise((resolve) => requestAnimationFrame(resolve));
      markInteractive();
    }
  }
  const { bytes, worker, module } = loadPdf();
  const pdfjs = await module;
  pdfjs.GlobalWorkerOptions.workerPort = worker;
  // disableFontFace: pdf.js draws the glyphs itself instead of adding each embedded font to the page's
  // font set; every font added made Chromium lay out the whole page again (about 100 ms each on a
  // 13-page form with 300 fields: 1-2 s of layout before the first page showed).
  const data = new Uint8Array(await bytes);
  const doc: PDFDocumentProxy = await pdfjs.getDocument({ data, isEvalSupported: false, standardFontDataUrl: config.standardFonts, useWasm: false, enableXfa: false, disableFontFace: true }).promise;
  const total = doc.numPages;
  if (!pages || pages.length !== total) {
    // No sizes from the server (or not this document's): every page's size from pdf.js first (cheap:
    // no drawing), so each gets its place, a placeholder and its markers at once.
    for (const el of pagesEl.querySelectorAll('.page')) el.remove();
    docStatus.textContent = total === 1 ? t('sign.pageCountOne') : t('sign.pageCount', { count: total });
    const loaded = await Promise.all(Array.from({ length: total }, (_, i) => doc.getPage(i + 1)));
    pages = loaded.map((page, i) => {
      const p = layPage(i + 1, total, page.getViewport({ scale: 1 }));
      p.page = page;
      return p;
    });
    document.dispatchEvent(new CustomEvent('formsign:pages'));
  }
  const all = pages;

  // One page drawn at a time, nearest first: a long document never has thirteen renders competing.
  const wanted = new Set<Page>();
  let busy = false;
  const pump = async () => {
    if (busy) return;
    busy = true;
    try {
      while (wanted.size > 0) {
        const p = [...wanted].sort((a, b) => a.n - b.n)[0]!;
        wanted.delete(p);
        await draw(p);
      }
    } finally {
      busy = false;
    }
  };
  const draw = async (p: Page) => {
    // The canvas backs the page's CSS box at the screen's pixel density: its size is taken from the box
    // as laid out now (both sides, so the drawing fills the page to its foot), never from a guess.
    const box = p.wrap.getBoundingClientRect();
    const cssWidth = box.width || p.wrap.clientWidth || 600;
    if (p.drawnWidth === cssWidth) return;
    const page = (p.page ??= await doc.getPage(p.n));
    const ratio = Math.min(window.devicePixelRatio || 1, 2);
    const viewport = page.getViewport({ scale: (cssWidth / page.getViewport({ scale: 1 }).width) * ratio });
    // Drawn off screen, then copied in: a page being redrawn never shows blank or half drawn.
    const off = document.createElement('canvas');
    off.width = Math.ceil(viewport.width);
    off.height = Math.ceil(viewport.height);
    p.task = page.render({ canvas: off, canvasContext: off.getContext('2d')!, viewport });
    try {
      await p.task.promise;
    } catch (err) {
      if ((err as Error | null)?.name === 'RenderingCancelledException') return;
      throw err;
    } finally {
      p.task = null;
    }
    // The page's canvas is made at its first drawing: until then the placeholder or the picture shows.
    let canvas = p.canvas;
    if (!canvas) {
      canvas = p.canvas = document.createElement('canvas');
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', t('sign.pageLabel', { page: p.n, total }));
      // Under the markers.
      p.wrap.insertBefore(canvas, p.wrap.querySelector(':scope > .marker'));
    }
    canvas.width = off.width;
    canvas.height = off.height;
    canvas.getContext('2d')!.drawImage(off, 0, 0);
    p.drawnWidth = cssWidth;
    p.wrap.classList.remove('pending');
    p.wrap.classList.add('drawn');
    // Without a picture, the page is interactive once its first page shows (the controls were wired
    // before drawing began).
    markInteractive();
  };
  const byWrap = new Map(all.map((p) => [p.wrap, p]));
  const visible = new Set<Page>();
  const observer = new IntersectionObserver((entries) => {
    for (const e of entries) {
      const p = byWrap.get(e.target as HTMLDivElement);
      if (!p) continue;
      if (e.isIntersecting) {
        visible.add(p);
        wanted.add(p);
      } else {
        visible.delete(p);
        wanted.delete(p);
      }
    }
    void pump();
  }, { rootMargin: '400px 0px' });
  for (const p of all) observer.observe(p.wrap);
  let pending: ReturnType<typeof setTimeout> | undefined;
  const relayout = (): void => {
    clearTimeout(pending);
    // A new width: the pages in view are drawn again for it (draw() skips a page already drawn at its
    // width); the others when they come into view.
    pending = setTimeout(() => {
      for (const p of visible) wanted.add(p);
      void pump();
    }, 200);
  };
  window.addEventListener('resize', relayout);
  // Guided mode on and off (guided.ts) lays the pages out at another width.
  document.addEventListener('formsign:relayout', relayout);
}

function placeMarkers(wrap: HTMLElement, pageNumber: number, base: Size): void {
  for (const f of config.fields) {
    if (f.page !== pageNumber) continue;
    // Markers repeat the panel's controls for pointer users; keyboard users get the same fields once,
    // in the panel's order (a marker takes no Tab stop). A marker never prints a label over the
    // document: the box is highlighted and its label is its accessible name (and the panel's).
    const label = f.label || f.name;
    const m = document.createElement(f.mine ? 'button' : 'div');
    if (m instanceof HTMLButtonElement) {
      m.type = 'button';
      m.tabIndex = -1;
    } else {
      m.setAttribute('aria-hidden', 'true');
    }
    m.className = `marker ${f.mine ? 'mine' : 'theirs'} type-${f.type}${f.required && f.mine ? ' required' : ''}`;
    m.dataset['for'] = f.id;
    m.style.left = `${(f.x / base.width) * 100}%`;
    m.style.top = `${(f.y / base.height) * 100}%`;
    m.style.width = `${(f.width / base.width) * 100}%`;
    m.style.height = `${(f.height / base.height) * 100}%`;
    if (f.mine) {
      m.title = f.required ? t('sign.markerRequired', { label: isolate(label) }) : label;
      m.addEventListener('click', () => focusControl(f.id));
    } else {
      m.title = t('sign.markerTheirs', { label: isolate(label) });
    }
    const text = document.createElement('span');
    text.className = 'marker-text';
    // A value runs in its own direction (an Arabic address on the document).
    text.dir = 'auto';
    m.append(text);
    wrap.append(m);
    markers.set(f.id, m);
    refreshMarker(f.id);
  }
}

function refreshMarker(id: string): void {
  const m = markers.get(id);
  const f = fieldsById.get(id);
  if (!m || !f) return;
  m.hidden = document.querySelector<HTMLElement>(`[data-wrap="${id}"]`)?.hidden ?? false;
  const text = m.querySelector('.marker-text')!;
  m.querySelector('canvas')?.remove();
  if (!f.mine) {
    // The rendered document already shows other signers' values; only what it leaves out (signatures
    // until sealing, the signing date) is named here.
    if (f.type === 'signature' || f.type === 'initials') text.textContent = f.signed ? t('sign.markerSigned') : '';
    else if (f.type === 'date_signed') text.textContent = f.value == null ? '' : String(f.value);
    else text.textContent = '';
    return;
  }
  const value = currentValue(id);
  m.classList.toggle('filled', value !== null && value !== '' && value !== false);
  const image = images.get(id);
  if ((f.type === 'signature' || f.type === 'initials') && image) {
    const c = document.createElement('canvas');
    const src = image.canvas;
    c.width = src.width;
    c.height = src.height;
    c.getContext('2d')!.drawImage(src, 0, 0);
    text.textContent = '';
    m.prepend(c);
    nameMarker(m, f, '');
    return;
  }
  if (f.type === 'date_signed') text.textContent = t('sign.markerDate');
  else if (f.type === 'signature' || f.type === 'initials') text.textContent = f.type === 'initials' ? t('sign.markerInitials') : t('sign.markerSignHere');
  else if (f.type === 'checkbox') text.textContent = value ? '✓' : '';
  else text.textContent = value ? String(value) : '';
  nameMarker(m, f, f.type === 'checkbox' ? '' : text.textContent);
}

/** The box's accessible name: its label, with what it shows (a name must contain its visible text). */
function nameMarker(m: HTMLElement, f: PageFieldConfig, shown: string | null): void {
  const label = f.label || f.name;
  m.setAttribute('aria-label', shown ? t('sign.markerValue', { label, value: shown, page: f.page }) : t('sign.marker', { label, page: f.page }));
}

function focusControl(id: string): void {
  // Guided mode (guided.ts) first opens the field's step, so its control can take the focus.
  document.dispatchEvent(new CustomEvent('formsign:goto', { detail: { id } }));
  const el = document.getElementById(id);
  if (!el) return;
  const target = el.matches('fieldset, .sig') ? el.querySelector<HTMLElement>('input, button')! : el;
  // At once, not smoothly: on a desktop the document then scrolls (smoothly) to the field's box, and
  // two smooth scrolls at a time stop each other half-way.
  target.scrollIntoView({ block: 'center' });
  target.focus({ preventScroll: true });
}

function scrollToMarker(id: string): void {
  const m = markers.get(id);
  if (!m) return;
  for (const other of markers.values()) other.classList.remove('active');
  m.classList.add('active');
  // On a narrow screen the panel sits below the document: moving the page there would hide the control.
  if (window.matchMedia('(min-width: 900px)').matches) m.scrollIntoView({ block: 'center', behavior: 'smooth' });
}

// ---------- values ----------

const OWN: Field = { name: '_signature', type: 'signature', required: true, label: t('sign.yourSignature') };
const fieldOf = (el: Element): Field => fieldsById.get(el.id) ?? OWN;
const controls = (): HTMLElement[] => [...form.querySelectorAll<HTMLElement>('[data-field]')].filter((el) => fieldOf(el).type !== 'date_signed' && !el.closest<HTMLElement>('[data-wrap]')?.hidden);

/**
 * Shows the fields whose condition holds, hides the others, and fills each formula's field, by the
 * evaluator the server checks the submission with (field-logic.js). Other signers' values are those
 * the page was given.
 */
function applyLogic(): void {
  if (!logic) return;
  const values: Record<string, string | number | boolean | null> = {};
  for (const f of config.fields) {
    if (!f.mine) values[f.name] = f.value;
    else if (f.type === 'signature' || f.type === 'initials') values[f.name] = images.has(f.id) ? 'signed' : null;
    else values[f.name] = currentValue(f.id) as string | boolean | null;
  }
  const { values: out, hidden } = logic.applyFieldLogic(config.fields, values);
  for (const f of config.fields) {
    if (!f.mine) continue;
    const wrap = document.querySelector<HTMLElement>(`[data-wrap="${f.id}"]`);
    if (wrap) wrap.hidden = hidden.has(f.name);
    if (f.formula) {
      const el = document.getElementById(f.id) as HTMLInputElement | null;
      if (el) el.value = out[f.name] == null ? '' : String(out[f.name]);
    }
    refreshMarker(f.id);
  }
}

function currentValue(id: string): Value {
  const f = fieldsById.get(id);
  const el = document.getElementById(id) as HTMLInputElement | null;
  if (!el) return null;
  if (!f) return images.get(id) ?? null;
  switch (f.type) {
    case 'checkbox': return el.checked;
    case 'radio': return el.querySelector<HTMLInputElement>('input:checked')?.value ?? null;
    case 'signature':
    case 'initials': return images.get(id) ?? null;
    case 'date_signed': return null;
    default: return el.value.trim() === '' ? null : el.value;
  }
}

const isEmpty = (v: Value): boolean => v === null || v === false;

// What is wrong is judged by the server's own rules (value-rules.js); it is said in the page's language.
const MISSING: Partial<Record<string, string>> = { signature: 'problem.requiredSignature', initials: 'problem.requiredInitials', checkbox: 'problem.requiredCheckbox', radio: 'problem.requiredChoice', select: 'problem.requiredChoice' };
const WRONG: Partial<Record<string, string>> = { number: 'problem.number', email: 'problem.email', phone: 'problem.phone', date: 'problem.date', radio: 'problem.choice', select: 'problem.choice' };

/** The field's problem in its own words ("Monthly rent must be a number."), or null. */
function problemOf(el: HTMLElement, { requireFilled }: { requireFilled: boolean }): string | null {
  const f = fieldOf(el);
  const v = currentValue(el.id);
  const label = isolate(rules.fieldWords(f));
  if (isEmpty(v)) return requireFilled && f.required ? t(MISSING[f.type] ?? 'problem.required', { label }) : null;
  if (f.type === 'signature' || f.type === 'initials' || f.type === 'checkbox') return null;
  const checked = rules.checkFieldValue(f, v);
  const wrong = WRONG[f.type];
  if (checked.ok) return null;
  const length = [...String(v)].length;
  const max = f.max_length != null && length > f.max_length ? f.max_length : length > rules.MAX_VALUE_CHARS ? rules.MAX_VALUE_CHARS : null;
  if (max !== null) return t('problem.tooLong', { label, max: max.toLocaleString(config.locale) });
  return wrong ? t(wrong, { label }) : `${label} ${checked.problem}`;
}

/** Shows (or clears) a field's error at the field, and marks it invalid for assistive technology. */
function markField(el: HTMLElement, problem: string | null): void {
  const slot = document.getElementById(`${el.id}-error`);
  const box = el.closest('.ctl');
  box?.classList.toggle('invalid', problem !== null);
  const input = el.matches('input, select, textarea') ? el : null;
  if (input) input.setAttribute('aria-invalid', String(problem !== null));
  if (slot) {
    setIsolated(slot, problem ?? '');
    slot.hidden = problem === null;
  }
}

/** The values to submit and the fields still wrong; `mark` shows every problem at its field. */
function collect(mark = false): { values: Record<string, unknown>; problems: Problem[] } {
  const values: Record<string, unknown> = {};
  const problems: Problem[] = [];
  for (const el of controls()) {
    const f = fieldOf(el);
    const v = currentValue(el.id);
    const problem = problemOf(el, { requireFilled: true });
    if (mark) markField(el, problem);
    if (problem) problems.push({ id: el.id, label: rules.fieldWords(f), missing: isEmpty(v) });
    if (f.type === 'signature' || f.type === 'initials' || !fieldsById.has(el.id)) {
      if (v && typeof v === 'object') values[f.name] = { image: v.dataUrl, method: v.method };
      continue;
    }
    // Computed by the server as well (and refused if sent).
    if (f.formula) continue;
    if (v !== null) values[f.name] = v;
  }
  return { values, problems };
}

function showError(message: string, focusId?: string, kind = 'other'): void {
  setIsolated(formError, message);
  formError.dataset.kind = kind;
  formError.hidden = false;
  if (focusId) focusControl(focusId);
  else formError.focus();
}

function updateProgress(): void {
  applyLogic();
  const { problems } = collect();
  const required = controls().filter((el) => fieldOf(el).required);
  const missing = problems.filter((p) => p.missing);
  const done = required.length - missing.length;
  if (required.length > 0) {
    byId('progress').textContent = t('sign.progressLong', { done, total: required.length });
    byId('guide-progress').textContent = t('sign.progress', { done, total: required.length });
  }
  if (!formError.hidden && problems.length === 0 && formError.dataset.kind === 'missing') formError.hidden = true;
  document.dispatchEvent(new CustomEvent('formsign:problems', { detail: { problems } }));
  // A field marked wrong is re-judged as it changes, so its error leaves as soon as it is right.
  for (const box of form.querySelectorAll<HTMLElement>('.ctl.invalid')) {
    const el = box.matches('[data-field]') ? box : box.querySelector<HTMLElement>('[data-field]');
    if (el) markField(el, problems.find((p) => p.id === el.id) ? problemOf(el, { requireFilled: true }) : null);
  }
}

let lastGuided: string | null = null;

/** Moves to the next required field still empty after the one in focus (wrapping), page and panel. */
function nextField(): void {
  const list = controls();
  const { problems } = collect();
  const empty = new Set(problems.filter((p) => p.missing).map((p) => p.id));
  const wrong = new Set(problems.map((p) => p.id));
  // The control in focus, else the one this button last went to (clicking it took the focus).
  let current = list.findIndex((el) => el.contains(document.activeElement));
  if (current < 0) current = list.findIndex((el) => el.id === lastGuided);
  const order = [...list.slice(current + 1), ...list.slice(0, current + 1)];
  // Empty required fields first; once they are all filled, any field whose value breaks its rule.
  const next = order.find((el) => empty.has(el.id)) ?? order.find((el) => wrong.has(el.id));
  if (!next) {
    const consent = byId<HTMLInputElement>('consent');
    showError(t('sign.allDone'), consent.checked ? 'finish' : 'consent', 'done');
    return;
  }
  lastGuided = next.id;
  // A focus ring may not show after a pointer click, so the field the guide went to is outlined.
  for (const el of form.querySelectorAll('.ctl.guided')) el.classList.remove('guided');
  next.closest('.ctl')?.classList.add('guided');
  focusControl(next.id);
  scrollToMarker(next.id);
}

/** The element an event happened on (every event listened to here comes from an element). */
const targetOf = (e: Event): HTMLElement => e.target as HTMLElement;

form.addEventListener('input', (e) => {
  const id = targetOf(e).closest('[data-field]')?.id;
  if (id) refreshMarker(id);
  updateProgress();
  saveProgress();
});
form.addEventListener('change', saveProgress);
// Checked in the browser as soon as the signer leaves a field; "required" waits for Finish.
form.addEventListener('focusout', (e) => {
  const el = targetOf(e).closest<HTMLElement>('[data-field]');
  if (el && targetOf(e).matches('input, select, textarea')) markField(el, problemOf(el, { requireFilled: false }));
});
form.addEventListener('focusin', (e) => {
  const id = targetOf(e).closest('[data-field]')?.id;
  for (const el of form.querySelectorAll('.ctl.guided')) if (!el.contains(targetOf(e))) el.classList.remove('guided');
  if (id) scrollToMarker(id);
});
byId('next-field').addEventListener('click', nextField);

let submitting = false;
form.addEventListener('submit', async (e) => {
  e.preventDefault();
  formError.hidden = true;
  const { values, problems } = collect(true);
  if (problems.length > 0) {
    const missing = problems.every((p) => p.missing);
    const labels = problems.map((p) => isolate(p.label)).join(', ');
    const key = missing ? (problems.length === 1 ? 'sign.missingOne' : 'sign.missingMany') : problems.length === 1 ? 'sign.fixOne' : 'sign.fixMany';
    showError(t(key, { count: problems.length, labels }), problems[0]!.id, 'missing');
    document.dispatchEvent(new CustomEvent('formsign:problems', { detail: { problems } }));
    return;
  }
  if (!byId<HTMLInputElement>('consent').checked) {
    document.querySelector('.consent')!.classList.add('invalid');
    showError(t('sign.tickConsent'), 'consent');
    return;
  }
  const button = byId<HTMLButtonElement>('finish');
  button.disabled = true;
  button.textContent = t('sign.signing');
  try {
    submitting = true;
    const res = await fetch(config.submit, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-formsign-signing': '1' },
      // The signer's UTC offset (minutes east) for the audit trail.
      body: JSON.stringify({ values, consent: true, utc_offset_minutes: -new Date().getTimezoneOffset(), locale: config.locale }),
      credentials: 'same-origin',
      referrerPolicy: 'no-referrer',
    });
    const body = (await res.json().catch(() => null)) as { next: string; complete?: boolean; error?: { param?: string; message?: string } } | null;
    if (res.status === 401 && body?.error?.param === 'finish') {
      // The sender asked for the check again at Finish: check.js asks for it, then submits again.
      submitting = false;
      button.disabled = false;
      button.textContent = t('sign.finishAndSign');
      document.dispatchEvent(new CustomEvent('formsign:finish-check'));
      return;
    }
    if (!res.ok) {
      // The link can no longer be signed (already signed, expired): what was typed has no use left here.
      if (res.status === 409 || res.status === 410) clearProgress();
      // The server's refusal names the field (values.<name>): show it there too.
      const name = body?.error?.param?.replace(/^values\./, '');
      const el = name ? controls().find((c) => c.dataset.field === name) : undefined;
      if (el && body?.error?.message) markField(el, body.error.message);
      throw new Error(body?.error?.message ?? t('sign.notAccepted', { status: res.status }));
    }
    clearProgress();
    // For a host page framing this one (embed-bridge.js): the signature was accepted.
    document.dispatchEvent(new CustomEvent('formsign:submitted', { detail: { complete: body?.complete === true } }));
    window.location.assign(body!.next);
  } catch (err) {
    submitting = false;
    button.disabled = false;
    button.textContent = t('sign.finishAndSign');
    showError(err instanceof Error && err.message ? err.message : t('sign.networkError'));
    document.dispatchEvent(new CustomEvent('formsign:failed', { detail: { message: err instanceof Error ? err.message : '' } }));
  }
});
byId('consent').addEventListener('change', (e) => {
  const box = e.target as HTMLInputElement;
  box.closest('.ctl')!.classList.toggle('invalid', !box.checked && !formError.hidden);
});

// ---------- nothing lost ----------
// The signer's progress (values, typed signature text, drawn signatures as PNG) is kept in this tab's
// sessionStorage under the link, restored on reload, and leaving with unsaved input asks first.

/**
 * What this tab keeps of the signer's progress (sessionStorage), and `base`: the save of the server's
 * draft its values are newer than (draft.ts saves them there). A draft saved later elsewhere (another
 * tab, another device) is newer than this tab's copy, whose values then give way to it.
 */
interface Snapshot { values: Record<string, string | boolean>; signatures: Record<string, { dataUrl: string; method: SignatureImage['method']; typed: string | null }>; consent: boolean; base?: string | null }
let draftBase = config.draft_saved_at ?? null;
document.addEventListener('formsign:draft-saved', (e) => {
  draftBase = (e as CustomEvent<{ saved_at?: string }>).detail?.saved_at ?? draftBase;
  saveProgress();
});

function snapshot(): Snapshot {
  const values: Snapshot['values'] = {};
  const signatures: Snapshot['signatures'] = {};
  for (const el of controls()) {
    const v = currentValue(el.id);
    if (v && typeof v === 'object') signatures[el.id] = { dataUrl: v.dataUrl, method: v.method, typed: v.typed ?? null };
    else if (v !== null) values[el.id] = v;
  }
  return { values, signatures, consent: byId<HTMLInputElement>('consent').checked, base: draftBase };
}

const hasInput = (snap: Snapshot): boolean => Object.keys(snap.values).some((id) => snap.values[id] !== false) || Object.keys(snap.signatures).length > 0;

function saveProgress(): void {
  try {
    const snap = snapshot();
    if (hasInput(snap)) sessionStorage.setItem(STORE_KEY, JSON.stringify(snap));
    else sessionStorage.removeItem(STORE_KEY);
  } catch {
    // Storage full or disabled: the page still works, it only forgets on reload.
  }
}

function clearProgress(): void {
  try {
    sessionStorage.removeItem(STORE_KEY);
  } catch {
    // Nothing to clear.
  }
}

/** A PNG data URL as a canvas, without an <img> (the page's policy allows no data: images). */
async function canvasOf(dataUrl: string): Promise<HTMLCanvasElement> {
  const bytes = Uint8Array.from(atob(dataUrl.slice(dataUrl.indexOf(',') + 1)), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  const canvas = document.createElement('canvas');
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
  return canvas;
}

async function restoreProgress(): Promise<void> {
  let snap: Partial<Snapshot> | null;
  try {
    snap = JSON.parse(sessionStorage.getItem(STORE_KEY) ?? 'null') as Partial<Snapshot> | null;
  } catch {
    snap = null;
  }
  if (!snap || typeof snap !== 'object') return;
  // The server's draft was saved after this copy was taken: the page shows the server's values.
  const stale = config.draft_saved_at != null && (snap.base ?? '') < config.draft_saved_at;
  for (const [id, v] of Object.entries(stale ? {} : (snap.values ?? {}))) {
    const el = document.getElementById(id) as HTMLInputElement | null;
    const f = fieldsById.get(id);
    if (!el || !f) continue;
    if (f.type === 'checkbox') el.checked = v === true;
    else if (f.type === 'radio') {
      const input = [...el.querySelectorAll('input')].find((i) => i.value === v);
      if (input) input.checked = true;
    } else if (typeof v === 'string') el.value = v;
    refreshMarker(id);
  }
  for (const [id, sig] of Object.entries(snap.signatures ?? {})) {
    if (!document.getElementById(id) || typeof sig?.dataUrl !== 'string') continue;
    try {
      setSignature(id, await canvasOf(sig.dataUrl), sig.method, sig.typed);
    } catch {
      // A damaged image is dropped; the signer signs again.
    }
  }
  if (snap.consent === true) byId<HTMLInputElement>('consent').checked = true;
  updateProgress();
}

// Another language: the page reloads in it, and what was typed comes back from sessionStorage.
const langMenu = document.getElementById('lang-menu') as HTMLFormElement | null;
langMenu?.addEventListener('submit', () => {
  saveProgress();
  submitting = true;
});
langMenu?.querySelector('select')?.addEventListener('change', () => langMenu.requestSubmit());

window.addEventListener('beforeunload', (e) => {
  if (submitting || !hasInput(snapshot())) return;
  saveProgress();
  e.preventDefault();
  e.returnValue = t('sign.unsaved');
});

// ---------- signatures ----------

const dialog = byId<HTMLDialogElement>('sig-dialog');
const padCanvas = byId<HTMLCanvasElement>('pad');
const typed = byId<HTMLInputElement>('typed');
const typedPreview = byId<HTMLCanvasElement>('typed-preview');
const sigError = byId('sig-error');
let pad: SignaturePadType | undefined;
let editing: string | null = null;
let mode: 'draw' | 'type' | 'upload' = 'draw';
// Adopting a signature (issue 43 item 7, assets/adopt-signature.ts): the typed name's styles drawn by
// the server, initials derived, uploads, "use for every signature and initials field of mine".
const adoptModule = import(config.adopt.script) as Promise<Adopt>;
adoptModule.catch(() => {});
const aw = (key: string, vars: Vars = {}): string => fill(config.adopt.text[key] ?? key, vars);
const typedStyles = adoptModule.then((m) => new m.TypedStyles(config.adopt.styles));
typedStyles.catch(() => {});
let styleId: string | null = null;
/** The name typed for a signature (not initials) in this visit: initials and other fields derive from it. */
let nameSoFar = config.adopt.name;
let uploaded: HTMLCanvasElement | null = null;
let stylesTimer: ReturnType<typeof setTimeout> | undefined;

// A typed signature is drawn in a font that has the letters typed: the script font for Latin, then
// by script the fonts the server offers (config.fonts). Each loads once, only when first needed; the
// canvas takes each letter from the first family in the list that has it.
interface Face { key: string; family: string; test: (s: string) => boolean; descriptors?: FontFaceDescriptors }
const FACES: Face[] = [
  { key: 'script', family: 'Formsign Script', test: () => true },
  { key: 'serifItalic', family: 'Formsign Serif', test: (s) => /[\p{Script=Cyrillic}\p{Script=Greek}]/u.test(s), descriptors: { style: 'italic' } },
  { key: 'sans', family: 'Formsign Sans', test: (s) => /[\p{Script=Arabic}\p{Script=Hebrew}]/u.test(s) },
  { key: 'kr', family: 'Formsign KR', test: (s) => /\p{Script=Hangul}/u.test(s) },
  { key: 'jp', family: 'Formsign JP', test: (s) => /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(s) || (config.locale === 'ja' && /\p{Script=Han}/u.test(s)) },
  { key: 'sc', family: 'Formsign SC', test: (s) => /\p{Script=Han}/u.test(s) },
];
const fontLoads = new Map<string, Promise<void>>();
const FAMILY_LIST = FACES.map((f) => `"${f.family}"`).join(', ');

function loadFontsFor(text: string): Promise<unknown> {
  const needed = FACES.filter((face) => face.test(text) && config.fonts[face.key]);
  return Promise.all(needed.map((face) => {
    if (!fontLoads.has(face.key)) {
      fontLoads.set(face.key, new FontFace(face.family, `url(${config.fonts[face.key]})`, face.descriptors ?? {}).load().then((loaded) => {
        document.fonts.add(loaded);
      }).catch((err) => console.warn('formsign: a signature font did not load', err)));
    }
    return fontLoads.get(face.key);
  }));
}

async function ensurePad(): Promise<SignaturePadType> {
  if (pad) return pad;
  const { default: SignaturePad } = (await import(config.signaturePad)) as { default: typeof SignaturePadType };
  pad = new SignaturePad(padCanvas, { penColor: '#1a237e', minWidth: 0.8, maxWidth: 2.6 });
  return pad;
}

function sizePad(): void {
  const ratio = Math.max(window.devicePixelRatio || 1, 1);
  const data = pad?.toData();
  padCanvas.width = padCanvas.offsetWidth * ratio;
  padCanvas.height = padCanvas.offsetHeight * ratio;
  padCanvas.getContext('2d')!.scale(ratio, ratio);
  pad?.clear();
  if (data) pad?.fromData(data);
}

const TABS = ['draw', 'type', 'upload'] as const;
function selectTab(which: typeof TABS[number]): void {
  mode = which;
  for (const [tab, pane] of TABS.map((k) => [`tab-${k}`, `pane-${k}`] as const)) {
    const on = tab === `tab-${which}`;
    const t = byId(tab);
    t.setAttribute('aria-selected', String(on));
    t.tabIndex = on ? 0 : -1;
    byId(pane).hidden = !on;
  }
  if (which === 'draw') sizePad();
  else if (which === 'type') void showStyles();
}

/**
 * The typed name in its script's styles (the server's outlines), the chosen one painted on the
 * preview that is sent. Without them (offline, an old server) the name is drawn in the page's fonts.
 */
async function showStyles(): Promise<void> {
  const text = typed.value.trim();
  const set = byId('sig-styles');
  const failed = byId('styles-failed');
  if (!text) {
    set.hidden = true;
    drawTyped();
    return;
  }
  try {
    const [m, all] = await Promise.all([adoptModule, typedStyles.then((s) => s.of(text))]);
    if (typed.value.trim() !== text) return;
    if (all.length === 0) throw new Error('no style has these letters');
    styleId = m.showStyleChoices(byId('sig-style-list'), all, styleId, (id) => {
      styleId = id;
      const chosen = all.find((s) => s.id === id);
      if (chosen) m.paintOutline(typedPreview, chosen);
    });
    m.paintOutline(typedPreview, all.find((s) => s.id === styleId)!);
    set.hidden = false;
    failed.hidden = true;
    typedPreview.hidden = true;
  } catch (err) {
    console.warn('formsign: typed signature styles', err);
    set.hidden = true;
    failed.hidden = false;
    typedPreview.hidden = false;
    await loadFontsFor(text);
    drawTyped();
  }
}

function drawTyped(): void {
  const ctx = typedPreview.getContext('2d')!;
  ctx.clearRect(0, 0, typedPreview.width, typedPreview.height);
  const text = typed.value.trim();
  if (!text) return;
  let size = 150;
  ctx.font = `${size}px ${FAMILY_LIST}`;
  while (ctx.measureText(text).width > typedPreview.width - 60 && size > 30) {
    size -= 6;
    ctx.font = `${size}px ${FAMILY_LIST}`;
  }
  ctx.fillStyle = '#1a237e';
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'center';
  ctx.fillText(text, typedPreview.width / 2, typedPreview.height / 2);
}

/** A canvas's ink, cropped to what was drawn or typed (with a margin), as a new canvas. */
function cropped(source: HTMLCanvasElement): HTMLCanvasElement | null {
  const ctx = source.getContext('2d')!;
  const { width, height } = source;
  const data = ctx.getImageData(0, 0, width, height).data;
  let x0 = width, y0 = height, x1 = -1, y1 = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (data[(y * width + x) * 4 + 3]! > 0) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
  }
  if (x1 < 0) return null;
  const m = 8;
  x0 = Math.max(0, x0 - m); y0 = Math.max(0, y0 - m); x1 = Math.min(width - 1, x1 + m); y1 = Math.min(height - 1, y1 + m);
  const scale = Math.min(1, 1200 / (x1 - x0 + 1), 600 / (y1 - y0 + 1));
  const out = document.createElement('canvas');
  out.width = Math.max(1, Math.round((x1 - x0 + 1) * scale));
  out.height = Math.max(1, Math.round((y1 - y0 + 1) * scale));
  out.getContext('2d')!.drawImage(source, x0, y0, x1 - x0 + 1, y1 - y0 + 1, 0, 0, out.width, out.height);
  return out;
}

async function openDialog(id: string): Promise<void> {
  editing = id;
  const f = fieldsById.get(id);
  const initials = f?.type === 'initials';
  const before = images.get(id)?.typed;
  const m = await adoptModule.catch(() => null);
  // The recipient's name (or its initials) is typed in already; what they typed before comes back.
  typed.value = before ?? (initials ? (m?.initialsOf(nameSoFar) ?? '') : nameSoFar);
  byId('sig-title').textContent = initials ? t('dialog.initialsTitle') : t('dialog.signatureTitle');
  typed.previousElementSibling!.textContent = initials ? t('dialog.typeInitials') : t('dialog.typeName');
  sigError.hidden = true;
  // "Use for every field" is asked each time: one field's change is not every field's.
  const all = document.getElementById('sig-all') as HTMLInputElement | null;
  if (all) all.checked = false;
  dialog.showModal();
  const opened = await ensurePad();
  selectTab(mode);
  opened.clear();
  (mode === 'draw' ? byId('tab-draw') : typed).focus();
}

async function applySignature(): Promise<void> {
  // A typed name is painted again in its style: Apply may come before the styles have arrived.
  clearTimeout(stylesTimer);
  if (mode === 'type' && typed.value.trim()) await showStyles();
  const ink = mode === 'draw' ? (pad && !pad.isEmpty() ? cropped(padCanvas) : null)
    : mode === 'type' ? (typed.value.trim() ? cropped(typedPreview) : null)
      : uploaded ? cropped(uploaded) : null;
  // A photo's PNG can pass the server's size limit: made to fit now, not refused at Finish.
  const m = ink && mode === 'upload' ? await adoptModule.catch(() => null) : null;
  const canvas = ink && m ? m.fitSignature(ink, config.adopt.limits.signatureBytes) : ink;
  if (!canvas) {
    sigError.textContent = mode === 'draw' ? t('dialog.drawFirst') : mode === 'type' ? t('dialog.typeFirst') : aw('uploadFirst');
    sigError.hidden = false;
    return;
  }
  const id = editing!;
  const typedText = mode === 'type' ? typed.value.trim() : null;
  // An uploaded image is the signer's own hand, as a drawn one is (the evidence knows drawn and typed).
  setSignature(id, canvas, mode === 'type' ? 'typed' : 'drawn', typedText);
  const asInitials = fieldsById.get(id)?.type === 'initials';
  if (typedText && !asInitials) nameSoFar = typedText;
  if ((document.getElementById('sig-all') as HTMLInputElement | null)?.checked) await useForAll(id, canvas, mode === 'type' ? 'typed' : 'drawn', typedText, asInitials);
  dialog.close();
  saveProgress();
  form.querySelector<HTMLElement>(`[data-sign="${id}"]`)!.focus();
}

/**
 * "Use for every signature and initials field of mine": the same image on every field of the same kind;
 * the other kind gets the name (or its initials) typed in the chosen style, when a name is known.
 */
async function useForAll(sourceId: string, canvas: HTMLCanvasElement, method: SignatureImage['method'], typedText: string | null, sourceInitials: boolean): Promise<void> {
  const m = await adoptModule;
  const others = [...form.querySelectorAll<HTMLElement>('[data-sign]')].map((b) => b.dataset['sign'] ?? '').filter((id) => id !== sourceId && fieldVisible(id));
  let count = 0;
  for (const id of others) {
    const initials = fieldsById.get(id)?.type === 'initials';
    if (initials === sourceInitials) {
      setSignature(id, canvas, method, typedText);
      count++;
      continue;
    }
    const text = initials ? m.initialsOf(nameSoFar) : nameSoFar;
    if (!text) continue;
    try {
      const outline = await (await typedStyles).outline(text, styleId);
      if (!outline) continue;
      const paper = document.createElement('canvas');
      paper.width = typedPreview.width;
      paper.height = typedPreview.height;
      m.paintOutline(paper, outline);
      const ink = cropped(paper);
      if (ink) {
        setSignature(id, ink, 'typed', text);
        count++;
      }
    } catch (err) {
      console.warn('formsign: a typed signature for another field', err);
    }
  }
  if (count > 0) allStatus.textContent = aw('appliedAll', { count });
}
const allStatus = document.createElement('p');
allStatus.className = 'muted sig-all-status';
allStatus.setAttribute('role', 'status');
form.querySelector('.controls')?.before(allStatus);
/** A field shown to the signer (a conditional field whose condition does not hold is not filled for them). */
const fieldVisible = (id: string): boolean => !form.querySelector<HTMLElement>(`[data-wrap="${id}"]`)?.hidden;

/** Puts a signature image on field `id`: the panel's preview, the marker, the values to send. */
function setSignature(id: string, canvas: HTMLCanvasElement, method: SignatureImage['method'], typedText: string | null | undefined): void {
  const keep = document.createElement('canvas');
  keep.width = canvas.width;
  keep.height = canvas.height;
  keep.getContext('2d')!.drawImage(canvas, 0, 0);
  images.set(id, { canvas: keep, method, typed: typedText ?? null, dataUrl: keep.toDataURL('image/png') });
  const preview = byId<HTMLCanvasElement>(`${id}-preview`);
  preview.width = keep.width;
  preview.height = keep.height;
  preview.getContext('2d')!.drawImage(keep, 0, 0);
  preview.hidden = false;
  preview.setAttribute('aria-label', t('sign.signedAria', { label: preview.dataset['label'] ?? '' }));
  form.querySelector(`[data-sign="${id}"]`)!.textContent = t('sign.change');
  refreshMarker(id);
  updateProgress();
}

form.addEventListener('click', (e) => {
  const button = targetOf(e).closest<HTMLElement>('[data-sign]');
  if (button) void openDialog(button.dataset['sign'] ?? '');
});
byId('tab-draw').addEventListener('click', () => selectTab('draw'));
byId('tab-type').addEventListener('click', () => selectTab('type'));
byId('tab-upload').addEventListener('click', () => selectTab('upload'));
document.querySelector<HTMLElement>('.tabs')!.addEventListener('keydown', (e) => {
  if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
  // The next tab in reading order: in a right-to-left page ArrowLeft goes forward.
  const forward = (e.key === 'ArrowRight') !== (document.documentElement.dir === 'rtl');
  selectTab(TABS[(TABS.indexOf(mode) + (forward ? 1 : TABS.length - 1)) % TABS.length]!);
  byId(`tab-${mode}`).focus();
});
byId<HTMLInputElement>('sig-upload').addEventListener('change', async (e) => {
  const input = e.target as HTMLInputElement;
  const file = input.files?.[0];
  const preview = byId<HTMLCanvasElement>('upload-preview');
  uploaded = null;
  preview.hidden = true;
  sigError.hidden = true;
  if (!file) return;
  const m = await adoptModule;
  try {
    uploaded = await m.readUpload(file, config.adopt.limits);
    const k = Math.min(preview.width / uploaded.width, preview.height / uploaded.height, 1);
    const ctx = preview.getContext('2d')!;
    ctx.clearRect(0, 0, preview.width, preview.height);
    ctx.drawImage(uploaded, (preview.width - uploaded.width * k) / 2, (preview.height - uploaded.height * k) / 2, uploaded.width * k, uploaded.height * k);
    preview.hidden = false;
  } catch (err) {
    const key = err instanceof m.UploadRefused ? err.key : 'uploadUnreadable';
    sigError.textContent = aw(key, { mb: config.adopt.limits.bytes / 1024 / 1024, mp: config.adopt.limits.pixels / 1_000_000 });
    sigError.hidden = false;
    input.value = '';
  }
});
byId('pad-clear').addEventListener('click', () => pad?.clear());
byId('sig-cancel').addEventListener('click', () => dialog.close());
byId('sig-apply').addEventListener('click', () => void applySignature());
typed.addEventListener('input', () => {
  clearTimeout(stylesTimer);
  stylesTimer = setTimeout(() => void showStyles(), 250);
});
typed.addEventListener('keydown', (e) => {
  if (e.key === 'Enter') {
    e.preventDefault();
    void applySignature();
  }
});
window.addEventListener('resize', () => {
  if (dialog.open && mode === 'draw') sizePad();
});

await restoreProgress();
updateProgress();
renderDocument().catch((err) => {
  docStatus.textContent = t('sign.docFailed');
  docStatus.classList.add('problem');
  console.warn('formsign: document rendering failed', err);
});
