// "Approve" on an approver's page (issue 42): posted as JSON to /sign/<token>/approve the way the page
// posts a signature (the same header, same origin), then the page the link now shows (approved). Its
// words are the page's, in the recipient's language (the config role-html.ts writes).
import type { SignPageConfig } from '../page-config.js';

const TEXT = (JSON.parse(document.getElementById('signing')?.dataset['config'] ?? '{}') as Partial<SignPageConfig>).text ?? {};
const t = (key: string, vars: Record<string, string | number> = {}): string => (TEXT[key] ?? key).replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k]));
const button = document.getElementById('approve') as HTMLButtonElement;
const error = document.getElementById('approve-error') as HTMLElement;

button.addEventListener('click', async () => {
  error.hidden = true;
  button.disabled = true;
  button.textContent = t('approve.approving');
  try {
    const res = await fetch(button.dataset['approve'] as string, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-formsign-signing': '1' },
      body: '{}',
      credentials: 'same-origin',
      referrerPolicy: 'no-referrer',
    });
    const body = (await res.json().catch(() => null)) as { next: string; error?: { message?: string } } | null;
    if (!res.ok) throw new Error(body?.error?.message ?? t('approve.failed', { status: res.status }));
    document.dispatchEvent(new CustomEvent('formsign:approved'));
    const next = new URL(body!.next, location.href);
    window.location.assign(next.pathname + next.search);
  } catch (err) {
    button.disabled = false;
    button.textContent = t('approve.approve');
    error.textContent = err instanceof Error && err.message ? err.message : t('approve.failed', { status: 0 });
    error.hidden = false;
  }
});
