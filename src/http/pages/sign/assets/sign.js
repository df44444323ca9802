// The signing page's script (plain ES module, served as is). It draws the document's pages with
// pdf.js, puts a marker over every field (this signer's open a control, the others' are read-only),
// takes signatures drawn with signature_pad or typed in the script font, and submits JSON.

const root = document.getElementById('signing');
const config = JSON.parse(root.dataset.config);
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
  const pdfjs = await import(config.pdfjs);
  pdfjs.GlobalWorkerOptions.workerSrc = config.pdfjsWorker;
  const doc = await pdfjs.getDocument({ url: config.document, isEvalSupported: false, standardFontDataUrl: config.standardFonts, useWasm: false, enableXfa: false }).promise;
  docStatus.textContent = `${doc.numPages} page${doc.numPages === 1 ? '' : 's'}`;
  const pages = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const base = page.getViewport({ scale: 1 });
    const wrap = document.createElement('div');
    wrap.className = 'page';
    wrap.style.aspectRatio = `${base.width} / ${base.height}`;
    const canvas = document.createElement('canvas');
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', `Page ${n} of ${doc.numPages}`);
    wrap.append(canvas);
    pagesEl.append(wrap);
    pages.push({ page, base, wrap, canvas });
    placeMarkers(wrap, n, base);
  }
  const draw = async () => {
    for (const p of pages) {
      const cssWidth = p.wrap.clientWidth || 600;
      const scale = (cssWidth / p.base.width) * Math.min(window.devicePixelRatio || 1, 2);
      const viewport = p.page.getViewport({ scale });
      p.canvas.width = Math.floor(viewport.width);
      p.canvas.height = Math.floor(viewport.height);
      await p.page.render({ canvas: p.canvas, canvasContext: p.canvas.getContext('2d'), viewport }).promise;
    }
  };
  await draw();
  let pending;
  window.addEventListener('resize', () => {
    clearTimeout(pending);
    pending = setTimeout(() => void draw(), 200);
  });
}

function placeMarkers(wrap, pageNumber, base) {
  for (const f of config.fields) {
    if (f.page !== pageNumber) continue;
    // Markers repeat the panel's controls for pointer users; keyboard and screen-reader users get the
    // same fields once, in the panel's order, so the markers stay out of the accessibility tree.
    const m = document.createElement('div');
    m.setAttribute('aria-hidden', 'true');
    m.className = `marker ${f.mine ? 'mine' : 'theirs'} type-${f.type}${f.required && f.mine ? ' required' : ''}`;
    m.style.left = `${(f.x / base.width) * 100}%`;
    m.style.top = `${(f.y / base.height) * 100}%`;
    m.style.width = `${(f.width / base.width) * 100}%`;
    m.style.height = `${(f.height / base.height) * 100}%`;
    const label = f.label || f.name;
    if (f.mine) {
      m.title = `${label}${f.required ? ' (required)' : ''}`;
      m.addEventListener('click', () => focusControl(f.id));
    } else {
      m.title = `${label} — filled by another signer`;
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
  const text = m.querySelector('.marker-text');
  m.querySelector('canvas')?.remove();
  if (!f.mine) {
    // The rendered document already shows other signers' values; only what it leaves out (signatures
    // until sealing, the signing date) is named here.
    if (f.type === 'signature' || f.type === 'initials') text.textContent = f.signed ? 'Signed' : f.label || f.name;
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
    return;
  }
  if (f.type === 'date_signed') text.textContent = 'Date of signing';
  else if (f.type === 'signature' || f.type === 'initials') text.textContent = f.type === 'initials' ? 'Initials' : 'Sign here';
  else if (f.type === 'checkbox') text.textContent = value ? '✓' : '';
  else text.textContent = value ? String(value) : f.label || f.name;
}

function focusControl(id) {
  const el = document.getElementById(id);
  if (!el) return;
  const target = el.matches('fieldset, .sig') ? el.querySelector('input, button') : el;
  target.scrollIntoView({ block: 'center', behavior: 'smooth' });
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

function currentValue(id) {
  const f = fieldsById.get(id);
  const el = document.getElementById(id);
  if (!f || !el) return null;
  switch (f.type) {
    case 'checkbox': return el.checked;
    case 'radio': return el.querySelector('input:checked')?.value ?? null;
    case 'signature':
    case 'initials': return images.has(id) ? images.get(id) : null;
    case 'date_signed': return null;
    default: return el.value.trim() === '' ? null : el.value;
  }
}

/** The values to submit and the required fields still empty; `mark` outlines those (on finishing). */
function collect(mark = false) {
  const values = {};
  const missing = [];
  const controls = [...form.querySelectorAll('[data-field]')];
  for (const el of controls) {
    const id = el.id;
    const f = fieldsById.get(id) ?? { name: el.dataset.field, type: 'signature', required: true, label: 'Your signature' };
    if (f.type === 'date_signed') continue;
    const v = id === 'field-own' ? images.get(id) ?? null : currentValue(id);
    const empty = v === null || v === false;
    if (mark) el.closest('.ctl')?.classList.toggle('invalid', f.required && empty);
    if (f.required && empty) missing.push({ id, label: f.label || f.name });
    if (f.type === 'signature' || f.type === 'initials' || id === 'field-own') {
      if (v) values[f.name] = { image: v.dataUrl, method: v.method };
      continue;
    }
    if (v !== null) values[f.name] = v;
  }
  return { values, missing };
}

function showError(message, focusId, kind = 'other') {
  formError.textContent = message;
  formError.dataset.kind = kind;
  formError.hidden = false;
  if (focusId) focusControl(focusId);
  else formError.focus();
}

function updateProgress() {
  const { missing } = collect();
  const total = [...form.querySelectorAll('[data-field]')].filter((el) => (fieldsById.get(el.id)?.required ?? el.id === 'field-own') && fieldsById.get(el.id)?.type !== 'date_signed').length;
  if (total > 0) document.getElementById('progress').textContent = `${total - missing.length} of ${total} required field${total === 1 ? '' : 's'} done. Fields marked * are required.`;
  if (!formError.hidden && missing.length === 0 && formError.dataset.kind === 'missing') formError.hidden = true;
  for (const el of form.querySelectorAll('.ctl.invalid')) if (!missing.some((m) => m.id === (el.id || el.querySelector('[data-field]')?.id))) el.classList.remove('invalid');
}

form.addEventListener('input', (e) => {
  const id = e.target.closest('[data-field]')?.id;
  if (id) refreshMarker(id);
  updateProgress();
});
form.addEventListener('focusin', (e) => {
  const id = e.target.closest('[data-field]')?.id;
  if (id) scrollToMarker(id);
});

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  formError.hidden = true;
  const { values, missing } = collect(true);
  if (missing.length > 0) {
    showError(`Please complete ${missing.length === 1 ? 'this required field' : `these ${missing.length} required fields`}: ${missing.map((m) => m.label).join(', ')}.`, missing[0].id, 'missing');
    return;
  }
  if (!document.getElementById('consent').checked) {
    document.querySelector('.consent').classList.add('invalid');
    showError('Tick the box to agree to sign electronically.', 'consent');
    return;
  }
  const button = document.getElementById('finish');
  button.disabled = true;
  button.textContent = 'Signing…';
  try {
    const res = await fetch(config.submit, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-formsign-signing': '1' },
      body: JSON.stringify({ values, consent: true }),
      credentials: 'same-origin',
      referrerPolicy: 'no-referrer',
    });
    const body = await res.json().catch(() => null);
    if (!res.ok) throw new Error(body?.error?.message ?? `The signature was not accepted (HTTP ${res.status}). Please try again.`);
    window.location.assign(body.next);
  } catch (err) {
    button.disabled = false;
    button.textContent = 'Finish and sign';
    showError(err instanceof Error && err.message ? err.message : 'The signature could not be sent. Check your connection and try again.');
  }
});
document.getElementById('consent').addEventListener('change', (e) => e.target.closest('.ctl').classList.toggle('invalid', !e.target.checked && !formError.hidden));

// ---------- signatures ----------

const dialog = document.getElementById('sig-dialog');
const padCanvas = document.getElementById('pad');
const typed = document.getElementById('typed');
const typedPreview = document.getElementById('typed-preview');
const sigError = document.getElementById('sig-error');
let pad;
let fontReady;
let editing = null;
let mode = 'draw';

function loadScriptFont() {
  fontReady ??= (async () => {
    const face = new FontFace('Formsign Script', `url(${config.scriptFont})`);
    document.fonts.add(await face.load());
  })();
  return fontReady;
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
  else void loadScriptFont().then(drawTyped);
}

function drawTyped() {
  const ctx = typedPreview.getContext('2d');
  ctx.clearRect(0, 0, typedPreview.width, typedPreview.height);
  const text = typed.value.trim();
  if (!text) return;
  let size = 150;
  ctx.font = `${size}px "Formsign Script"`;
  while (ctx.measureText(text).width > typedPreview.width - 60 && size > 30) {
    size -= 6;
    ctx.font = `${size}px "Formsign Script"`;
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
  document.getElementById('sig-title').textContent = initials ? 'Add your initials' : 'Add your signature';
  typed.previousElementSibling.textContent = initials ? 'Type your initials' : 'Type your name';
  sigError.hidden = true;
  dialog.showModal();
  await ensurePad();
  selectTab(mode);
  pad.clear();
  (mode === 'draw' ? document.getElementById('tab-draw') : typed).focus();
}

function applySignature() {
  const canvas = mode === 'draw' ? (pad && !pad.isEmpty() ? cropped(padCanvas) : null) : typed.value.trim() ? cropped(typedPreview) : null;
  if (!canvas) {
    sigError.textContent = mode === 'draw' ? 'Draw your signature in the box, or choose Type.' : 'Type your name first.';
    sigError.hidden = false;
    return;
  }
  const keep = document.createElement('canvas');
  keep.width = canvas.width;
  keep.height = canvas.height;
  keep.getContext('2d').drawImage(canvas, 0, 0);
  images.set(editing, { canvas: keep, method: mode === 'draw' ? 'drawn' : 'typed', dataUrl: keep.toDataURL('image/png') });
  const preview = document.getElementById(`${editing}-preview`);
  preview.width = keep.width;
  preview.height = keep.height;
  preview.getContext('2d').drawImage(keep, 0, 0);
  preview.hidden = false;
  preview.setAttribute('aria-label', `${preview.getAttribute('aria-label').split(':')[0]}: signed`);
  const button = form.querySelector(`[data-sign="${editing}"]`);
  button.textContent = 'Change';
  const id = editing;
  dialog.close();
  refreshMarker(id);
  updateProgress();
  button.focus();
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
document.getElementById('sig-apply').addEventListener('click', applySignature);
typed.addEventListener('input', () => void loadScriptFont().then(drawTyped));
typed.addEventListener('keydown', (e) => {
  if (e.key === 'Enter') {
    e.preventDefault();
    applySignature();
  }
});
window.addEventListener('resize', () => {
  if (dialog.open && mode === 'draw') sizePad();
});

updateProgress();
renderDocument().catch((err) => {
  docStatus.textContent = 'The document could not be shown here. Use the link below to open it.';
  docStatus.classList.add('problem');
  console.warn('formsign: document rendering failed', err);
});
