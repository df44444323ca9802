// Files the signer attaches (issue 41), on the signing page: each attachment field the server renders
// (attachment-controls.ts: `[data-attach]`) gets "Add a file" and, on a phone, "Take a photo"; a chosen
// file is sent as the body of POST <link>/attachments?field=<name> and listed with a Remove button
// (DELETE <link>/attachments/<id>). The field's `data-field` button carries the files' names as its
// value, which the page's script (sign.js) reads like any field's: "required" is judged by it and the
// document's box shows it; an `input` event tells it the value changed. Words: the page's (`attach.*`).
import type { SignPageConfig } from '../page-config.js';

/** What the server answers an upload with (the file as listed). */
interface Attached {
  id: string;
  filename: string;
  size: number;
}

const config = JSON.parse((document.getElementById('signing') as HTMLElement).dataset['config'] as string) as SignPageConfig;
const TEXT = config.text;
const t = (key: string, vars: Record<string, string | number> = {}): string => (TEXT[key] ?? key).replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k]));
const MAX_BYTES = 10 * 1024 * 1024;
const base = `${location.pathname.replace(/\/+$/, '')}/attachments`;
const HEADERS = { 'x-formsign-signing': '1' };
// A phone (a coarse pointer) is offered its camera; a desktop's file dialog has no use for a second button.
const phone = window.matchMedia('(pointer: coarse)').matches;

const sizeText = (bytes: number): string => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

function wire(box: HTMLElement): void {
  const id = box.dataset['attach'] as string;
  const field = box.dataset['fieldName'] as string;
  const max = Number(box.dataset['max']);
  const add = document.getElementById(id) as HTMLButtonElement;
  const photo = document.getElementById(`${id}-photo`) as HTMLButtonElement | null;
  const picker = document.getElementById(`${id}-file`) as HTMLInputElement;
  const camera = document.getElementById(`${id}-camera`) as HTMLInputElement | null;
  const list = document.getElementById(`${id}-list`) as HTMLElement;
  const status = document.getElementById(`${id}-status`) as HTMLElement;
  const error = document.getElementById(`${id}-error`) as HTMLElement;
  if (photo && phone) photo.hidden = false;

  const items = (): HTMLLIElement[] => [...list.querySelectorAll<HTMLLIElement>('li[data-attachment]')];

  /** The value sign.js reads (the names), the buttons' state, and the news for sign.js's listeners. */
  function changed(): void {
    const names = items().map((li) => (li.querySelector('.attach-name') as HTMLElement).textContent);
    add.value = names.join(', ');
    const full = names.length >= max;
    add.disabled = full;
    if (photo) photo.disabled = full;
    add.dispatchEvent(new Event('input', { bubbles: true }));
  }

  function showError(message: string): void {
    error.textContent = message;
    error.hidden = !message;
    box.classList.toggle('invalid', Boolean(message));
  }

  function listed(file: Attached): HTMLLIElement {
    const li = document.createElement('li');
    li.dataset.attachment = file.id;
    const name = document.createElement('span');
    name.className = 'attach-name';
    name.dir = 'auto';
    name.textContent = file.filename;
    const size = document.createElement('span');
    size.className = 'muted';
    size.textContent = sizeText(file.size);
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'link-button';
    remove.dataset.remove = file.id;
    remove.setAttribute('aria-label', t('attach.removeName', { name: file.filename }));
    remove.textContent = t('attach.remove');
    li.append(name, ' ', size, ' ', remove);
    return li;
  }

  async function upload(file: File): Promise<void> {
    if (items().length >= max) return showError(t('attach.tooMany', { count: max }));
    if (file.size > MAX_BYTES) return showError(t('attach.tooBig', { name: file.name }));
    status.textContent = t('attach.uploading', { name: file.name });
    try {
      const res = await fetch(`${base}?field=${encodeURIComponent(field)}`, {
        method: 'POST',
        headers: { ...HEADERS, 'content-type': file.type || 'application/octet-stream', 'x-formsign-filename': encodeURIComponent(file.name) },
        body: file,
        credentials: 'same-origin',
        referrerPolicy: 'no-referrer',
      });
      const body = (await res.json().catch(() => null)) as (Attached & { error?: { message?: string } }) | null;
      if (!res.ok) throw new Error(body?.error?.message ?? String(res.status));
      list.append(listed(body!));
      status.textContent = t('attach.attached', { name: body!.filename });
      showError('');
      changed();
    } catch (err) {
      status.textContent = '';
      showError(t('attach.failed', { name: file.name, reason: err instanceof Error ? err.message : '' }));
    }
  }

  async function remove(button: HTMLButtonElement): Promise<void> {
    const li = button.closest('li') as HTMLLIElement;
    const name = (li.querySelector('.attach-name') as HTMLElement).textContent;
    button.disabled = true;
    try {
      const res = await fetch(`${base}/${encodeURIComponent(button.dataset['remove'] as string)}`, { method: 'DELETE', headers: HEADERS, credentials: 'same-origin', referrerPolicy: 'no-referrer' });
      // Gone already (removed in another tab) is removed too.
      if (!res.ok && res.status !== 404) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        throw new Error(body?.error?.message ?? String(res.status));
      }
      li.remove();
      status.textContent = t('attach.removed', { name });
      showError('');
      changed();
      add.focus();
    } catch (err) {
      button.disabled = false;
      showError(err instanceof Error ? err.message : '');
    }
  }

  async function chosen(input: HTMLInputElement): Promise<void> {
    const files = [...(input.files as FileList)];
    input.value = '';
    for (const file of files) await upload(file);
  }

  add.addEventListener('click', () => picker.click());
  photo?.addEventListener('click', () => camera?.click());
  picker.addEventListener('change', () => void chosen(picker));
  camera?.addEventListener('change', () => void chosen(camera));
  list.addEventListener('click', (e) => {
    const button = (e.target as Element).closest<HTMLButtonElement>('[data-remove]');
    if (button) void remove(button);
  });
  // What the server listed is the truth: a value sign.js restored from this tab's storage is replaced.
  changed();
}

for (const box of document.querySelectorAll<HTMLElement>('[data-attach]')) wire(box);
