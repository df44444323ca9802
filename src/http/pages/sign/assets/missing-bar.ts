// Compact live errors (issue 43 item 2): after Finish with fields left, the bar's message is one line,
// "2 left: Your signature → Go", kept true as the signer fills fields (sign.js tells this script what
// is still wrong with a `formsign:problems` event each time it re-judges), and the full list only on
// request — never a list that fills the screen. The message box is sign.js's (#form-error, an alert).
import type { SignPageConfig } from '../page-config.js';
import type { Problem } from './sign.js';

const config = JSON.parse(document.getElementById('signing')?.dataset['config'] ?? '{}') as Partial<SignPageConfig>;
const TEXT = config.text ?? {};
const t = (key: string, vars: Record<string, string | number> = {}): string => (TEXT[key] ?? key).replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k]));
const box = document.getElementById('form-error')!;
const rtl = document.documentElement.dir === 'rtl';
let open = false;

/** Moves to a field's control (the first input or button of a group) and the field's box. */
function go(id: string): void {
  // Guided mode (guided.ts) first opens the field's step, so its control can take the focus.
  document.dispatchEvent(new CustomEvent('formsign:goto', { detail: { id } }));
  const el = document.getElementById(id);
  if (!el) return;
  const target = el.matches('fieldset, .sig') ? el.querySelector<HTMLElement>('input, button') : el;
  target?.scrollIntoView({ block: 'center' });
  target?.focus({ preventScroll: true });
}

function button(text: string, cls: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = cls;
  b.textContent = text;
  b.addEventListener('click', onClick);
  return b;
}

/** The one line ("N left: first label", Go, Show all) and, when asked for, the list. */
function render(problems: readonly Problem[]): void {
  const first = problems[0];
  if (box.hidden || box.dataset['kind'] !== 'missing' || !first) return;
  const line = document.createElement('span');
  line.className = 'left-text';
  const [before, after] = t(problems.length === 1 ? 'sign.leftOne' : 'sign.leftMany', { count: problems.length, label: '\u0000' }).split('\u0000');
  const label = document.createElement('bdi');
  label.textContent = first.label;
  line.append(before ?? '', label, after ?? '');
  const row = document.createElement('span');
  row.className = 'left-row';
  row.append(line, button(`${t('sign.go')} ${rtl ? '←' : '→'}`, 'link-button left-go', () => go(first.id)));
  const parts = [row];
  if (problems.length > 1) {
    const toggle = button(open ? t('sign.hideAll') : t('sign.showAll'), 'link-button left-toggle', () => {
      open = !open;
      render(problems);
    });
    toggle.setAttribute('aria-expanded', String(open));
    row.append(toggle);
    if (open) {
      const list = document.createElement('ul');
      list.className = 'left-list';
      for (const p of problems) {
        const item = document.createElement('li');
        const b = document.createElement('bdi');
        b.textContent = p.label;
        const link = button('', 'link-button', () => go(p.id));
        link.append(b);
        item.append(link);
        list.append(item);
      }
      parts.push(list);
    }
  }
  box.replaceChildren(...parts);
}

document.addEventListener('formsign:problems', (e) => render((e as CustomEvent<{ problems?: Problem[] }>).detail?.problems ?? []));
