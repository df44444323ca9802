// Guided mode (issue 43 item 1), the default on a narrow screen: the signer fills one field at a time
// in a sheet at the foot of the screen, while the document above is laid out at GUIDED_SCALE and
// scrolled to that field's box. sign.ts draws each page at the width its box is laid out at, so the
// zoomed pages are drawn again by pdf.js at that size (crisp), never a small canvas stretched.
// The sheet shows the panel's own control (moved into it and back), so its label, its error slot and
// everything sign.ts does with it stay as they are; after the last field comes the consent and Finish.
// Previous/Next walk the fields in the panel's order (hidden conditional fields skipped), a tap on a
// box of the document opens its field, and "Show all fields" gives back the list view.
import type { SignPageConfig } from '../page-config.js';

const config = JSON.parse(document.getElementById('signing')?.dataset['config'] ?? '{}') as Partial<SignPageConfig>;
const TEXT = config.text ?? {};
const t = (key: string, vars: Record<string, string | number> = {}): string => (TEXT[key] ?? key).replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k]));
const byId = <T extends HTMLElement = HTMLElement>(id: string): T | null => document.getElementById(id) as T | null;

/** CSS px per PDF point while guided: 8 pt print reads at 14 px, a 7 pt checkbox is drawn 12 px (its tap area is 24 px). */
const GUIDED_SCALE = 1.75;
const NARROW = window.matchMedia('(max-width: 899.98px)');
const form = byId<HTMLFormElement>('sign-form');
const panel = document.querySelector<HTMLElement>('.panel');
const doc = document.querySelector<HTMLElement>('.doc');
const pages = byId('pages');
const guide = byId('guide');
// The document starts below the actions menu (the header and the menu stay in reach).
const header = document.querySelector<HTMLElement>('.sign-top') ?? document.querySelector<HTMLElement>('.sign-header');

/** Where a moved element goes back to. */
const homes = new Map<HTMLElement, Comment>();
function borrow(el: HTMLElement, into: HTMLElement): void {
  if (!homes.has(el)) {
    const home = document.createComment('');
    el.before(home);
    homes.set(el, home);
  }
  into.append(el);
}
function giveBack(el: HTMLElement): void {
  const home = homes.get(el);
  if (!home) return;
  home.replaceWith(el);
  homes.delete(el);
}

function button(id: string, text: string, cls: string): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.id = id;
  b.className = cls;
  b.textContent = text;
  return b;
}

if (form && panel && doc && pages && guide && form.querySelector('[data-field]')) {
  // Each of this signer's fields, in the panel's order: its box (the wrap of a conditional field, so
  // sign.ts still hides it when its condition fails). A date of signing is filled by the server.
  const boxes = [...form.querySelectorAll<HTMLElement>('.controls > *')].filter((box) => box.querySelector('[data-field]') || box.matches('[data-field]'));
  const fieldIdOf = (box: HTMLElement): string => (box.matches('[data-field]') ? box : box.querySelector<HTMLElement>('[data-field]'))?.id ?? '';

  const sheet = document.createElement('section');
  sheet.className = 'sheet';
  sheet.id = 'sheet';
  sheet.setAttribute('aria-labelledby', 'sheet-step');
  const head = document.createElement('div');
  head.className = 'sheet-head';
  const stepLine = document.createElement('h2');
  stepLine.className = 'sheet-step';
  stepLine.id = 'sheet-step';
  const listButton = button('list-view', t('sign.listView'), 'link-button sheet-list');
  head.append(stepLine, listButton);
  const body = document.createElement('div');
  body.className = 'sheet-body';
  const nav = document.createElement('div');
  nav.className = 'sheet-nav';
  const prev = button('sheet-prev', t('sign.guidedPrevious'), 'button secondary');
  const next = button('sheet-next', t('sign.guidedNext'), 'button');
  nav.append(prev, next);
  sheet.append(head, body, nav);
  sheet.hidden = true;
  form.append(sheet);
  // The last step: what the signer agrees to, and Finish.
  const review = document.createElement('div');
  review.className = 'sheet-review';
  const reviewParts = [byId('meaning'), form.querySelector<HTMLElement>('.consent'), byId('finish')].filter((x): x is HTMLElement => x !== null);

  // Back to guided mode from the list, on a narrow screen.
  const guidedButton = button('guided-view', t('sign.guidedView'), 'button secondary guided-view');
  form.querySelector('.controls')?.before(guidedButton);

  let on = false;
  let current = -1;
  const REVIEW = -2;
  const visibleBoxes = (): HTMLElement[] => boxes.filter((b) => !b.hidden);

  const markerOf = (id: string): HTMLElement | null => pages.querySelector<HTMLElement>(`.marker[data-for="${id}"]`);

  /** Scrolls the zoomed document so the field's box sits in the middle of what the sheet leaves free. */
  function showBox(id: string): void {
    for (const m of pages!.querySelectorAll('.marker.active')) m.classList.remove('active');
    const marker = markerOf(id);
    if (!marker || !on) return;
    marker.classList.add('active');
    const r = marker.getBoundingClientRect();
    const d = doc!.getBoundingClientRect();
    doc!.scrollBy({ left: r.left - d.left - (d.width - r.width) / 2, top: r.top - d.top - Math.max(16, (d.height - r.height) / 3), behavior: 'instant' });
  }

  function open(index: number, focus = true): void {
    for (const el of [...homes.keys()]) if (el !== guide) giveBack(el);
    const list = visibleBoxes();
    if (index === REVIEW || list.length === 0) {
      current = REVIEW;
      for (const part of reviewParts) borrow(part, review);
      body.replaceChildren(review);
      stepLine.textContent = t('sign.guidedReview');
      prev.disabled = list.length === 0;
      next.hidden = true;
      if (focus) reviewParts.find((p) => p.matches('.consent'))?.querySelector('input')?.focus();
      return;
    }
    current = Math.max(0, Math.min(index, list.length - 1));
    const box = list[current]!;
    borrow(box, body);
    stepLine.textContent = t('sign.guidedStep', { n: current + 1, total: list.length });
    prev.disabled = current === 0;
    next.hidden = false;
    next.textContent = current === list.length - 1 ? t('sign.guidedReview') : t('sign.guidedNext');
    const id = fieldIdOf(box);
    measure();
    showBox(id);
    if (focus) {
      const el = byId(id);
      const target = el && el.matches('fieldset, .sig') ? el.querySelector<HTMLElement>('input, button') : el;
      target?.focus({ preventScroll: true });
    }
  }

  const indexOfField = (id: string): number => visibleBoxes().findIndex((b) => fieldIdOf(b) === id || b.querySelector(`[id="${CSS.escape(id)}"]`) !== null);

  /** Keeps the layout's measures: the document fills what the header and the sheet leave. */
  function measure(): void {
    document.body.style.setProperty('--doc-top', `${Math.ceil(header?.getBoundingClientRect().bottom ?? 0)}px`);
    document.body.style.setProperty('--sheet-h', `${Math.ceil(panel!.getBoundingClientRect().height)}px`);
  }
  new ResizeObserver(() => {
    if (on) measure();
  }).observe(panel);

  function enter(): void {
    if (on) return;
    on = true;
    window.scrollTo(0, 0);
    document.body.classList.add('guided-mode');
    document.body.style.setProperty('--guided-scale', String(GUIDED_SCALE));
    sheet.hidden = false;
    borrow(guide!, head);
    measure();
    // The pages are laid out wider now: sign.ts draws those in view again at their new size.
    document.dispatchEvent(new CustomEvent('formsign:relayout'));
    open(current === REVIEW ? REVIEW : Math.max(current, 0), false);
  }

  function leave(): void {
    if (!on) return;
    on = false;
    for (const el of [...homes.keys()]) giveBack(el);
    sheet.hidden = true;
    document.body.classList.remove('guided-mode');
    document.dispatchEvent(new CustomEvent('formsign:relayout'));
  }

  prev.addEventListener('click', () => open(current === REVIEW ? visibleBoxes().length - 1 : current - 1));
  next.addEventListener('click', () => open(current + 1 >= visibleBoxes().length ? REVIEW : current + 1));
  listButton.addEventListener('click', () => {
    const id = current >= 0 ? fieldIdOf(visibleBoxes()[current]!) : 'consent';
    leave();
    guidedButton.focus({ preventScroll: true });
    byId(id)?.scrollIntoView({ block: 'center' });
  });
  guidedButton.addEventListener('click', () => {
    enter();
    open(current === REVIEW ? REVIEW : Math.max(current, 0));
  });

  // A tap on one of this signer's boxes opens its field (instead of the list's control).
  pages.addEventListener('click', (e) => {
    if (!on) return;
    const marker = (e.target as HTMLElement).closest<HTMLElement>('.marker.mine');
    if (!marker) return;
    e.stopPropagation();
    const index = indexOfField(marker.dataset['for'] ?? '');
    if (index >= 0) open(index);
  }, true);
  // sign.ts (Finish with fields left, "Next field") and missing-bar.ts ("Go") move to a field: its step opens first.
  document.addEventListener('formsign:goto', (e) => {
    if (!on) return;
    const id = (e as CustomEvent<{ id?: string }>).detail?.id ?? '';
    if (id === 'consent' || id === 'finish') return open(REVIEW, false);
    const index = indexOfField(id);
    if (index >= 0 && index !== current) open(index, false);
  });
  // The pages arrive after this script runs: the open field's box is shown once it exists.
  document.addEventListener('formsign:pages', () => {
    if (on && current >= 0) requestAnimationFrame(() => showBox(fieldIdOf(visibleBoxes()[current]!)));
  });
  window.addEventListener('resize', () => {
    if (on) measure();
  });
  // A long form (the server's call: sign-html.ts) starts guided on a narrow screen; a few fields read
  // faster as the list ("One field at a time" offers the sheet there too).
  const long = document.querySelector('.sign-main.long-form') !== null;
  NARROW.addEventListener('change', () => (NARROW.matches && long ? enter() : leave()));
  if (NARROW.matches && long) enter();
}
// The layout is shown once guided mode is decided, so it never jumps from the list to the sheet (CLS).
document.querySelector('.sign-main')?.classList.add('guide-ready');
