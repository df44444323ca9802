// The signing page's script (plain ES module, served as is). It draws the document's pages with
// pdf.js, puts a marker over every field (this signer's open a control, the others' are read-only),
// takes signatures drawn with signature_pad or typed in the script font, and submits JSON. It guides
// (Next field, progress, errors at each field by the server's own rules) and keeps the signer's
// progress in sessionStorage until they sign. Its words come from the page, in the signer's language
// (config.text, keys of src/lib/i18n/catalogues/en.ts). Pages are drawn as they scroll into view.

const root = document.getElementById('signing');
const config = JSON.parse(root.dataset.config);
// The longest path to a drawn page is the document (megabytes for a long form) and pdf.js with its
// worker (which parses it): all three start here, before anything else waits, and load while the rest
// of the page is wired (the head's modulepreload links have already asked for the scripts).
const documentBytes = fetch(config.document, { credentials: 'same-origin' }).then((res) => {
  if (!res.ok) throw new Error(`the document answered ${res.status}`);
  return res.arrayBuffer();
});
const pdfWorker = new Worker(config.pdfjsWorker, { type: 'module' });
const pdfjsModule = import(config.pdfjs);
// Until renderDocument takes them, a failure is its to report, not an unhandled rejection.
documentBytes.catch(() => {});
pdfjsModule.catch(() => {});
// The server's own value rules (one definition): the page checks with them before sending.
const rules = await import(config.valueRules);
// Conditions and formulas (issue 41), by the server's own evaluator; only forms that have them load it.
const logic = config.fieldLogic ? await import(config.fieldLogic) : null;
const TEXT = config.text;
const fill = (template, vars) => template.replace(/\{(\w+)\}/g, (_, k) => String(vars[k]));
/** The text of `key` in the page's language, placeholders filled. */
const t = (key, vars = {}) => fill(TEXT[key] ?? key, vars);
const STORE_KEY = `formsign:progress:${location.pathname}`;
const form = document.getElementById('sign-form');
const formError = document.getElementById('form-error');
const docStatus = document.getElementById('doc-status');
const pagesEl = document.getElementById('pages');
const fieldsById = new Map(config.fields.map((f) => [f.id, f]));
/** Signature images by control id: { canvas (the preview), method, dataUrl }. */
const images = new Map();
const markers = new Map();

// ---------- the document ----------

async function renderDocument() {
  const pdfjs = await pdfjsModule;
  pdfjs.GlobalWorkerOptions.workerPort = pdfWorker;
  // disableFontFace: pdf.js draws the glyphs itself instead of adding each embedded font to the page's
  // font set; every font added made Chromium lay out the whole page again (about 100 ms each on a
  // 13-page form with 300 fields: 1-2 s of layout before the first page showed).
  const data = new Uint8Array(await documentBytes);
  const doc = await pdfjs.getDocument({ data, isEvalSupported: false, standardFontDataUrl: config.standardFonts, useWasm: false, enableXfa: false, disableFontFace: true }).promise;
  const total = doc.numPages;
  docStatus.textContent = total === 1 ? t('sign.pageCountOne') : t('sign.pageCount', { count: total });
  // Every page's size first (cheap: no drawing), so each gets its place, a placeholder with its
  // number and a spinner, and its markers at once; the drawing waits until the page is near the view.
  const loaded = await Promise.all(Array.from({ length: total }, (_, i) => doc.getPage(i + 1)));
  const pages = loaded.map((page, i) => {
    const n = i + 1;
    const base = page.getViewport({ scale: 1 });
    const wrap = document.createElement('div');
    wrap.className = 'page pending';
    wrap.dataset.page = String(n);
    wrap.style.aspectRatio = `${base.width} / ${base.height}`;
    const placeholder = document.createElement('div');
    placeholder.className = 'page-placeholder';
    const spinner = document.createElement('span');
    spinner.className = 'spinner';
    spinner.setAttribute('aria-hidden', 'true');
    const label = document.createElement('span');
    label.textContent = t('sign.pageLoading', { page: n, total });
    placeholder.append(spinner, label);
    const canvas = document.createElement('canvas');
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', t('sign.pageLabel', { page: n, total }));
    wrap.append(placeholder, canvas);
    pagesEl.append(wrap);
    placeMarkers(wrap, n, base);
    return { n, page, base, wrap, canvas, drawnWidth: 0, task: null };
  });

  // One page drawn at a time, nearest first: a long document never has thirteen renders competing.
  const wanted = new Set();
  let busy = false;
  const pump = async () => {
    if (busy) return;
    busy = true;
    try {
      while (wanted.size > 0) {
        const p = [...wanted].sort((a, b) => a.n - b.n)[0];
        wanted.delete(p);
        await draw(p);
      }
    } finally {
      busy = false;
    }
  };
  const draw = async (p) => {
    // The canvas backs the page's CSS box at the screen's pixel density: its size is taken from the box
    // as laid out now (both sides, so the drawing fills the page to its foot), never from a guess.
    const box = p.wrap.getBoundingClientRect();
    const cssWidth = box.width || p.wrap.clientWidth || 600;
    if (p.drawnWidth === cssWidth) return;
    const ratio = Math.min(window.devicePixelRatio || 1, 2);
    const viewport = p.page.getViewport({ scale: (cssWidth / p.base.width) * ratio });
    // Drawn off screen, then copied in: a page being redrawn never shows blank or half drawn.
    const off = document.createElement('canvas');
    off.width = Math.ceil(viewport.width);
    off.height = Math.ceil(viewport.height);
    p.task = p.page.render({ canvas: off, canvasContext: off.getContext('2d'), viewport });
    try {
      await p.task.promise;
    } catch (err) {
      if (err?.name === 'RenderingCancelledException') return;
      throw err;
    } finally {
      p.task = null;
    }
    p.canvas.width = off.width;
    p.canvas.height = off.height;
    p.canvas.getContext('2d').drawImage(off, 0, 0);
    p.drawnWidth = cssWidth;
    p.wrap.classList.remove('pending');
    p.wrap.classList.add('drawn');
    // The page is interactive once its first page shows (the controls were wired before drawing
    // began): a mark on the performance timeline, which bench/signing-tti.bench.ts reads.
    if (performance.getEntriesByName('formsign:interactive').length === 0) performance.mark('formsign:interactive');
  };
  const byWrap = new Map(pages.map((p) => [p.wrap, p]));
  const visible = new Set();
  const observer = new IntersectionObserver((entries) => {
    for (const e of entries) {
      const p = byWrap.get(e.target);
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
  for (const p of pages) observer.observe(p.wrap);
  let pending;
  window.addEventListener('resize', () => {
    clearTimeout(pending);
    // A new width: the pages in view are drawn again for it (draw() skips a page already drawn at its
    // width); the others when they come into view.
    pending = setTimeout(() => {
      for (const p of visible) wanted.add(p);
      void pump();
    }, 200);
  });
}

function placeMarkers(wrap, pageNumber, base) {
  for (const f of config.fields) {
    if (f.page !== pageNumber) continue;
    // Markers repeat the panel's controls for pointer users; keyboard users get the same fields once,
    // in the panel's order (a marker takes no Tab stop). A marker never prints a label over the
    // document: the box is highlighted and its label is its accessible name (and the panel's).
    const label = f.label || f.name;
    const m = document.createElement(f.mine ? 'button' : 'div');
    if (f.mine) {
      m.type = 'button';
      m.tabIndex = -1;
    } else {
      m.setAttribute('aria-hidden', 'true');
    }
    m.className = `marker ${f.mine ? 'mine' : 'theirs'} type-${f.type}${f.required && f.mine ? ' required' : ''}`;
    m.style.left = `${(f.x / base.width) * 100}%`;
    m.style.top = `${(f.y / base.height) * 100}%`;
    m.style.width = `${(f.width / base.width) * 100}%`;
    m.style.height = `${(f.height / base.height) * 100}%`;
    if (f.mine) {
      m.title = f.required ? t('sign.markerRequired', { label }) : label;
      m.addEventListener('click', () => focusControl(f.id));
    } else {
      m.title = t('sign.markerTheirs', { label });
    }
    const text = document.createElement('span');
    text.className = 'marker-text';
    m.append(text);
    wrap.append(m);
    markers.set(f.id, m);
    refreshMarker(f.id);
  }
}

function refreshMarker(id) {
  const m = markers.get(id);
  const f = fieldsById.get(id);
  if (!m || !f) return;
  m.hidden = document.querySelector(`[data-wrap="${id}"]`)?.hidden ?? false;
  const text = m.querySelector('.marker-text');
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
  if ((f.type === 'signature' || f.type === 'initials') && images.has(id)) {
    const c = document.createElement('canvas');
    const src = images.get(id).canvas;
    c.width = src.width;
    c.height = src.height;
    c.getContext('2d').drawImage(src, 0, 0);
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
function nameMarker(m, f, shown) {
  const label = f.label || f.name;
  m.setAttribute('aria-label', shown ? t('sign.markerValue', { label, value: shown, page: f.page }) : t('sign.marker', { label, page: f.page }));
}

function focusControl(id) {
  const el = document.getElementById(id);
  if (!el) return;
  const target = el.matches('fieldset, .sig') ? el.querySelector('input, button') : el;
  // At once, not smoothly: on a desktop the document then scrolls (smoothly) to the field's box, and
  // two smooth scrolls at a time stop each other half-way.
  target.scrollIntoView({ block: 'center' });
  target.focus({ preventScroll: true });
}

function scrollToMarker(id) {
  const m = markers.get(id);
  if (!m) return;
  for (const other of markers.values()) other.classList.remove('active');
  m.classList.add('active');
  // On a narrow screen the panel sits below the document: moving the page there would hide the control.
  if (window.matchMedia('(min-width: 900px)').matches) m.scrollIntoView({ block: 'center', behavior: 'smooth' });
}

// ---------- values ----------

const OWN = { name: '_signature', type: 'signature', required: true, label: t('sign.yourSignature') };
const fieldOf = (el) => fieldsById.get(el.id) ?? OWN;
const controls = () => [...form.querySelectorAll('[data-field]')].filter((el) => fieldOf(el).type !== 'date_signed' && !el.closest('[data-wrap]')?.hidden);

/**
 * Shows the fields whose condition holds, hides the others, and fills each formula's field, by the
 * evaluator the server checks the submission with (field-logic.js). Other signers' values are those
 * the page was given.
 */
function applyLogic() {
  if (!logic) return;
  const values = {};
  for (const f of config.fields) {
    if (!f.mine) values[f.name] = f.value;
    else if (f.type === 'signature' || f.type === 'initials') values[f.name] = images.has(f.id) ? 'signed' : null;
    else values[f.name] = currentValue(f.id);
  }
  const { values: out, hidden } = logic.applyFieldLogic(config.fields, values);
  for (const f of config.fields) {
    if (!f.mine) continue;
    const wrap = document.querySelector(`[data-wrap="${f.id}"]`);
    if (wrap) wrap.hidden = hidden.has(f.name);
    if (f.formula) {
      const el = document.getElementById(f.id);
      if (el) el.value = out[f.name] == null ? '' : String(out[f.name]);
    }
    refreshMarker(f.id);
  }
}

function currentValue(id) {
  const f = fieldsById.get(id);
  const el = document.getElementById(id);
  if (!el) return null;
  if (!f) return images.get(id) ?? null;
  switch (f.type) {
    case 'checkbox': return el.checked;
    case 'radio': return el.querySelector('input:checked')?.value ?? null;
    case 'signature':
    case 'initials': return images.get(id) ?? null;
    case 'date_signed': return null;
    default: return el.value.trim() === '' ? null : el.value;
  }
}

const isEmpty = (v) => v === null || v === false;

// What is wrong is judged by the server's own rules (value-rules.js); it is said in the page's language.
const MISSING = { signature: 'problem.requiredSignature', initials: 'problem.requiredInitials', checkbox: 'problem.requiredCheckbox', radio: 'problem.requiredChoice', select: 'problem.requiredChoice' };
const WRONG = { number: 'problem.number', email: 'problem.email', phone: 'problem.phone', date: 'problem.date', radio: 'problem.choice', select: 'problem.choice' };

/** The field's problem in its own words ("Monthly rent must be a number."), or null. */
function problemOf(el, { requireFilled }) {
  const f = fieldOf(el);
  const v = currentValue(el.id);
  const label = rules.fieldWords(f);
  if (isEmpty(v)) return requireFilled && f.required ? t(MISSING[f.type] ?? 'problem.required', { label }) : null;
  if (f.type === 'signature' || f.type === 'initials' || f.type === 'checkbox') return null;
  const checked = rules.checkFieldValue(f, v);
  if (checked.ok) return null;
  const length = [...String(v)].length;
  const max = f.max_length != null && length > f.max_length ? f.max_length : length > rules.MAX_VALUE_CHARS ? rules.MAX_VALUE_CHARS : null;
  if (max !== null) return t('problem.tooLong', { label, max: max.toLocaleString(config.locale) });
  return WRONG[f.type] ? t(WRONG[f.type], { label }) : `${label} ${checked.problem}`;
}

/** Shows (or clears) a field's error at the field, and marks it invalid for assistive technology. */
function markField(el, problem) {
  const slot = document.getElementById(`${el.id}-error`);
  const box = el.closest('.ctl');
  box?.classList.toggle('invalid', problem !== null);
  const input = el.matches('input, select, textarea') ? el : null;
  if (input) input.setAttribute('aria-invalid', String(problem !== null));
  if (slot) {
    slot.textContent = problem ?? '';
    slot.hidden = problem === null;
  }
}

/** The values to submit and the fields still wrong; `mark` shows every problem at its field. */
function collect(mark = false) {
  const values = {};
  const problems = [];
  for (const el of controls()) {
    const f = fieldOf(el);
    const v = currentValue(el.id);
    const problem = problemOf(el, { requireFilled: true });
    if (mark) markField(el, problem);
    if (problem) problems.push({ id: el.id, label: rules.fieldWords(f), missing: isEmpty(v) });
    if (f.type === 'signature' || f.type === 'initials' || !fieldsById.has(el.id)) {
      if (v) values[f.name] = { image: v.dataUrl, method: v.method };
      continue;
    }
    // Computed by the server as well (and refused if sent).
    if (f.formula) continue;
    if (v !== null) values[f.name] = v;
  }
  return { values, problems };
}

function showError(message, focusId, kind = 'other') {
  formError.textContent = message;
  formError.dataset.kind = kind;
  formError.hidden = false;
  if (focusId) focusControl(focusId);
  else formError.focus();
}

function updateProgress() {
  applyLogic();
  const { problems } = collect();
  const required = controls().filter((el) => fieldOf(el).required);
  const missing = problems.filter((p) => p.missing);
  const done = required.length - missing.length;
  if (required.length > 0) {
    document.getElementById('progress').textContent = t('sign.progressLong', { done, total: required.length });
    document.getElementById('guide-progress').textContent = t('sign.progress', { done, total: required.length });
  }
  if (!formError.hidden && problems.length === 0 && formError.dataset.kind === 'missing') formError.hidden = true;
  document.dispatchEvent(new CustomEvent('formsign:problems', { detail: { problems } }));
  // A field marked wrong is re-judged as it changes, so its error leaves as soon as it is right.
  for (const box of form.querySelectorAll('.ctl.invalid')) {
    const el = box.matches('[data-field]') ? box : box.querySelector('[data-field]');
    if (el) markField(el, problems.find((p) => p.id === el.id) ? problemOf(el, { requireFilled: true }) : null);
  }
}

let lastGuided = null;

/** Moves to the next required field still empty after the one in focus (wrapping), page and panel. */
function nextField() {
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
    const consent = document.getElementById('consent');
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

form.addEventListener('input', (e) => {
  const id = e.target.closest('[data-field]')?.id;
  if (id) refreshMarker(id);
  updateProgress();
  saveProgress();
});
form.addEventListener('change', saveProgress);
// Checked in the browser as soon as the signer leaves a field; "required" waits for Finish.
form.addEventListener('focusout', (e) => {
  const el = e.target.closest('[data-field]');
  if (el && e.target.matches('input, select, textarea')) markField(el, problemOf(el, { requireFilled: false }));
});
form.addEventListener('focusin', (e) => {
  const id = e.target.closest('[data-field]')?.id;
  for (const el of form.querySelectorAll('.ctl.guided')) if (!el.contains(e.target)) el.classList.remove('guided');
  if (id) scrollToMarker(id);
});
document.getElementById('next-field').addEventListener('click', nextField);

let submitting = false;
form.addEventListener('submit', async (e) => {
  e.preventDefault();
  formError.hidden = true;
  const { values, problems } = collect(true);
  if (problems.length > 0) {
    const missing = problems.every((p) => p.missing);
    const labels = problems.map((p) => p.label).join(', ');
    const key = missing ? (problems.length === 1 ? 'sign.missingOne' : 'sign.missingMany') : problems.length === 1 ? 'sign.fixOne' : 'sign.fixMany';
    showError(t(key, { count: problems.length, labels }), problems[0].id, 'missing');
    document.dispatchEvent(new CustomEvent('formsign:problems', { detail: { problems } }));
    return;
  }
  if (!document.getElementById('consent').checked) {
    document.querySelector('.consent').classList.add('invalid');
    showError(t('sign.tickConsent'), 'consent');
    return;
  }
  const button = document.getElementById('finish');
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
    const body = await res.json().catch(() => null);
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
    document.dispatchEvent(new CustomEvent('formsign:submitted', { detail: { complete: body.complete === true } }));
    window.location.assign(body.next);
  } catch (err) {
    submitting = false;
    button.disabled = false;
    button.textContent = t('sign.finishAndSign');
    showError(err instanceof Error && err.message ? err.message : t('sign.networkError'));
    document.dispatchEvent(new CustomEvent('formsign:failed', { detail: { message: err instanceof Error ? err.message : '' } }));
  }
});
document.getElementById('consent').addEventListener('change', (e) => e.target.closest('.ctl').classList.toggle('invalid', !e.target.checked && !formError.hidden));

// ---------- nothing lost ----------
// The signer's progress (values, typed signature text, drawn signatures as PNG) is kept in this tab's
// sessionStorage under the link, restored on reload, and leaving with unsaved input asks first.

function snapshot() {
  const values = {};
  const signatures = {};
  for (const el of controls()) {
    const v = currentValue(el.id);
    if (v && typeof v === 'object') signatures[el.id] = { dataUrl: v.dataUrl, method: v.method, typed: v.typed ?? null };
    else if (v !== null) values[el.id] = v;
  }
  return { values, signatures, consent: document.getElementById('consent').checked };
}

const hasInput = (snap) => Object.keys(snap.values).some((id) => snap.values[id] !== false) || Object.keys(snap.signatures).length > 0;

function saveProgress() {
  try {
    const snap = snapshot();
    if (hasInput(snap)) sessionStorage.setItem(STORE_KEY, JSON.stringify(snap));
    else sessionStorage.removeItem(STORE_KEY);
  } catch {
    // Storage full or disabled: the page still works, it only forgets on reload.
  }
}

function clearProgress() {
  try {
    sessionStorage.removeItem(STORE_KEY);
  } catch {
    // Nothing to clear.
  }
}

/** A PNG data URL as a canvas, without an <img> (the page's policy allows no data: images). */
async function canvasOf(dataUrl) {
  const bytes = Uint8Array.from(atob(dataUrl.slice(dataUrl.indexOf(',') + 1)), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  const canvas = document.createElement('canvas');
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  canvas.getContext('2d').drawImage(bitmap, 0, 0);
  return canvas;
}

async function restoreProgress() {
  let snap;
  try {
    snap = JSON.parse(sessionStorage.getItem(STORE_KEY) ?? 'null');
  } catch {
    snap = null;
  }
  if (!snap || typeof snap !== 'object') return;
  for (const [id, v] of Object.entries(snap.values ?? {})) {
    const el = document.getElementById(id);
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
  if (snap.consent === true) document.getElementById('consent').checked = true;
  updateProgress();
}

// Another language: the page reloads in it, and what was typed comes back from sessionStorage.
const langMenu = document.getElementById('lang-menu');
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

const dialog = document.getElementById('sig-dialog');
const padCanvas = document.getElementById('pad');
const typed = document.getElementById('typed');
const typedPreview = document.getElementById('typed-preview');
const sigError = document.getElementById('sig-error');
let pad;
let editing = null;
let mode = 'draw';

// A typed signature is drawn in a font that has the letters typed: the script font for Latin, then
// by script the fonts the server offers (config.fonts). Each loads once, only when first needed; the
// canvas takes each letter from the first family in the list that has it.
const FACES = [
  { key: 'script', family: 'Formsign Script', test: () => true },
  { key: 'serifItalic', family: 'Formsign Serif', test: (s) => /[\p{Script=Cyrillic}\p{Script=Greek}]/u.test(s), descriptors: { style: 'italic' } },
  { key: 'sans', family: 'Formsign Sans', test: (s) => /[\p{Script=Arabic}\p{Script=Hebrew}]/u.test(s) },
  { key: 'kr', family: 'Formsign KR', test: (s) => /\p{Script=Hangul}/u.test(s) },
  { key: 'jp', family: 'Formsign JP', test: (s) => /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(s) || (config.locale === 'ja' && /\p{Script=Han}/u.test(s)) },
  { key: 'sc', family: 'Formsign SC', test: (s) => /\p{Script=Han}/u.test(s) },
];
const fontLoads = new Map();
const FAMILY_LIST = FACES.map((f) => `"${f.family}"`).join(', ');

function loadFontsFor(text) {
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

async function ensurePad() {
  if (pad) return pad;
  const { default: SignaturePad } = await import(config.signaturePad);
  pad = new SignaturePad(padCanvas, { penColor: '#1a237e', minWidth: 0.8, maxWidth: 2.6 });
  return pad;
}

function sizePad() {
  const ratio = Math.max(window.devicePixelRatio || 1, 1);
  const data = pad?.toData();
  padCanvas.width = padCanvas.offsetWidth * ratio;
  padCanvas.height = padCanvas.offsetHeight * ratio;
  padCanvas.getContext('2d').scale(ratio, ratio);
  pad?.clear();
  if (data) pad.fromData(data);
}

function selectTab(which) {
  mode = which;
  for (const [tab, pane] of [['tab-draw', 'pane-draw'], ['tab-type', 'pane-type']]) {
    const on = tab === `tab-${which}`;
    const t = document.getElementById(tab);
    t.setAttribute('aria-selected', String(on));
    t.tabIndex = on ? 0 : -1;
    document.getElementById(pane).hidden = !on;
  }
  if (which === 'draw') sizePad();
  else void loadFontsFor(typed.value).then(drawTyped);
}

function drawTyped() {
  const ctx = typedPreview.getContext('2d');
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
function cropped(source) {
  const ctx = source.getContext('2d');
  const { width, height } = source;
  const data = ctx.getImageData(0, 0, width, height).data;
  let x0 = width, y0 = height, x1 = -1, y1 = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (data[(y * width + x) * 4 + 3] > 0) {
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
  out.getContext('2d').drawImage(source, x0, y0, x1 - x0 + 1, y1 - y0 + 1, 0, 0, out.width, out.height);
  return out;
}

async function openDialog(id) {
  editing = id;
  const f = fieldsById.get(id);
  const initials = f?.type === 'initials';
  if (images.get(id)?.typed) typed.value = images.get(id).typed;
  document.getElementById('sig-title').textContent = initials ? t('dialog.initialsTitle') : t('dialog.signatureTitle');
  typed.previousElementSibling.textContent = initials ? t('dialog.typeInitials') : t('dialog.typeName');
  sigError.hidden = true;
  dialog.showModal();
  await ensurePad();
  selectTab(mode);
  pad.clear();
  (mode === 'draw' ? document.getElementById('tab-draw') : typed).focus();
}

async function applySignature() {
  // A typed name is drawn again once its fonts are in: Apply may come before they have loaded.
  if (mode === 'type' && typed.value.trim()) {
    await loadFontsFor(typed.value);
    drawTyped();
  }
  const canvas = mode === 'draw' ? (pad && !pad.isEmpty() ? cropped(padCanvas) : null) : typed.value.trim() ? cropped(typedPreview) : null;
  if (!canvas) {
    sigError.textContent = mode === 'draw' ? t('dialog.drawFirst') : t('dialog.typeFirst');
    sigError.hidden = false;
    return;
  }
  const id = editing;
  setSignature(id, canvas, mode === 'draw' ? 'drawn' : 'typed', mode === 'type' ? typed.value.trim() : null);
  dialog.close();
  saveProgress();
  form.querySelector(`[data-sign="${id}"]`).focus();
}

/** Puts a signature image on field `id`: the panel's preview, the marker, the values to send. */
function setSignature(id, canvas, method, typedText) {
  const keep = document.createElement('canvas');
  keep.width = canvas.width;
  keep.height = canvas.height;
  keep.getContext('2d').drawImage(canvas, 0, 0);
  images.set(id, { canvas: keep, method, typed: typedText ?? null, dataUrl: keep.toDataURL('image/png') });
  const preview = document.getElementById(`${id}-preview`);
  preview.width = keep.width;
  preview.height = keep.height;
  preview.getContext('2d').drawImage(keep, 0, 0);
  preview.hidden = false;
  preview.setAttribute('aria-label', t('sign.signedAria', { label: preview.dataset.label }));
  form.querySelector(`[data-sign="${id}"]`).textContent = t('sign.change');
  refreshMarker(id);
  updateProgress();
}

form.addEventListener('click', (e) => {
  const button = e.target.closest('[data-sign]');
  if (button) void openDialog(button.dataset.sign);
});
document.getElementById('tab-draw').addEventListener('click', () => selectTab('draw'));
document.getElementById('tab-type').addEventListener('click', () => selectTab('type'));
document.querySelector('.tabs').addEventListener('keydown', (e) => {
  if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
  selectTab(mode === 'draw' ? 'type' : 'draw');
  document.getElementById(`tab-${mode}`).focus();
});
document.getElementById('pad-clear').addEventListener('click', () => pad?.clear());
document.getElementById('sig-cancel').addEventListener('click', () => dialog.close());
document.getElementById('sig-apply').addEventListener('click', () => void applySignature());
typed.addEventListener('input', () => void loadFontsFor(typed.value).then(drawTyped));
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
