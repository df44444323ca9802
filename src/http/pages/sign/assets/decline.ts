// "Decline to sign" on the signing page: a dialog with an optional reason, posted as JSON to
// /sign/<token>/decline the way the page posts a signature (the same header, same origin), then the
// page the link now shows (the form is declined). Its words are the page's, in the signer's language
// (the `decline.*` texts of the config that sign-html.ts writes).
import type { SignPageConfig } from '../page-config.js';

const TEXT = (JSON.parse(document.getElementById('signing')?.dataset['config'] ?? '{}') as Partial<SignPageConfig>).text ?? {};
const t = (key: string, vars: Record<string, string | number> = {}): string => (TEXT[key] ?? key).replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k]));
const byId = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;
const open = byId<HTMLButtonElement>('decline-open');
const dialog = byId<HTMLDialogElement>('decline-dialog');
const reason = byId<HTMLTextAreaElement>('decline-reason');
const error = byId('decline-error');
const confirm = byId<HTMLButtonElement>('decline-confirm');

function showError(message: string): void {
  error.textContent = message;
  error.hidden = false;
}

open.addEventListener('click', () => {
  error.hidden = true;
  dialog.showModal();
  reason.focus();
});
byId('decline-cancel').addEventListener('click', () => dialog.close());
dialog.addEventListener('close', () => open.focus());

confirm.addEventListener('click', async () => {
  const text = reason.value.trim();
  const max = Number(open.dataset['max']);
  if ([...text].length > max) return showError(t('decline.tooLong', { max }));
  confirm.disabled = true;
  confirm.textContent = t('decline.declining');
  try {
    const res = await fetch(open.dataset['decline'] ?? '', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-formsign-signing': '1' },
      body: JSON.stringify(text ? { reason: text } : {}),
      credentials: 'same-origin',
      referrerPolicy: 'no-referrer',
    });
    const body = (await res.json().catch(() => null)) as { next: string; error?: { message?: string } } | null;
    if (!res.ok) throw new Error(body?.error?.message ?? t('decline.failed', { status: res.status }));
    // What was typed on the signing page has no use left: the form is over. A framed page is often
    // refused storage (third-party storage blocked): the decline has been made, so go on regardless.
    try {
      sessionStorage.removeItem(`formsign:progress:${location.pathname}`);
    } catch {
      // Nothing was kept, then.
    }
    // Inside an embedding frame the bridge tells the host page (embed-bridge.js) before the page leaves,
    // and the declined page it leads to is told not to say it again.
    document.dispatchEvent(new CustomEvent('formsign:declined', { detail: { reason: text } }));
    const next = new URL(body!.next, location.href);
    if (window.parent !== window) next.searchParams.set('declined', 'told');
    window.location.assign(next.pathname + next.search);
  } catch (err) {
    confirm.disabled = false;
    confirm.textContent = t('decline.confirm');
    showError(err instanceof Error && err.message ? err.message : t('decline.networkError'));
  }
});
