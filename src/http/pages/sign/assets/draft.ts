// Progress on the server (issue 43): the values this signer has typed in their own fields are saved
// to PUT /sign/<token>/draft as they type (a second after the last change, one save at a time, and
// when the page is hidden), so the link opens them again on any device. Signature images are not
// sent: a signature is given at Finish (the page keeps it in this tab's sessionStorage meanwhile).
// A value the server's rules would refuse (an e-mail half typed) is left out of the save until it is
// right. "Finish later" saves at once and asks the server to send the link again (send_link).
import type { PageFieldConfig, SignPageConfig } from '../page-config.js';

type Rules = typeof import('../../../../domain/forms/value-rules.js');
type DraftValue = string | boolean | null;
/** PUT …/draft's answer (signing-draft.ts DraftSaved). */
interface Saved { saved_at: string; link_sent?: boolean }

const config = JSON.parse(document.getElementById('signing')?.dataset['config'] ?? '{}') as SignPageConfig;
const TEXT = config.text ?? {};
const t = (key: string): string => TEXT[key] ?? key;
const byId = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;
const row = byId('draft-row');
const statusLine = byId('draft-status');
const laterButton = byId<HTMLButtonElement>('finish-later');
const form = byId<HTMLFormElement>('sign-form');
const rules = (await import(config.valueRules)) as Rules;
const NOT_KEPT = new Set(['signature', 'initials', 'date_signed']);
const fields = (config.fields ?? []).filter((f) => f.mine && !NOT_KEPT.has(f.type));
const DELAY_MS = 1000;

function valueOf(f: PageFieldConfig): DraftValue | undefined {
  const el = document.getElementById(f.id) as HTMLInputElement | null;
  if (!el) return undefined;
  if (f.type === 'checkbox') return el.checked;
  if (f.type === 'radio') return el.querySelector<HTMLInputElement>('input:checked')?.value ?? null;
  return el.value.trim() === '' ? null : el.value;
}

/** This signer's values as the server takes them; a value its rules refuse is left out for now. */
function draftValues(): Record<string, DraftValue> {
  const values: Record<string, DraftValue> = {};
  for (const f of fields) {
    const v = valueOf(f);
    if (v === undefined) continue;
    if (v !== null && !rules.checkFieldValue(f, v).ok) continue;
    values[f.name] = v;
  }
  return values;
}

let saved = JSON.stringify(draftValues());
let timer: ReturnType<typeof setTimeout> | undefined;
let inFlight: Promise<Saved | null> | null = null;

async function put(body: object, keepalive = false): Promise<Saved | null> {
  const res = await fetch(row.dataset['draft'] ?? '', {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-formsign-signing': '1' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
    referrerPolicy: 'no-referrer',
    keepalive,
  });
  const answer = (await res.json().catch(() => null)) as (Saved & { error?: { message?: string } }) | null;
  if (!res.ok) throw new Error(answer?.error?.message ?? String(res.status));
  return answer;
}

async function save({ sendLink = false, keepalive = false } = {}): Promise<Saved | null> {
  clearTimeout(timer);
  timer = undefined;
  if (inFlight) await inFlight.catch(() => {});
  const text = JSON.stringify(draftValues());
  if (!sendLink && text === saved) return null;
  statusLine.textContent = t('sign.draftSaving');
  const run = put({ values: JSON.parse(text) as unknown, ...(sendLink ? { send_link: true } : {}) }, keepalive);
  inFlight = run;
  try {
    const answer = await run;
    saved = text;
    // sign.ts notes which save of the server's draft this tab's own copy is newer than.
    if (answer) document.dispatchEvent(new CustomEvent('formsign:draft-saved', { detail: { saved_at: answer.saved_at } }));
    statusLine.textContent = t('sign.draftSaved');
    return answer;
  } catch (err) {
    statusLine.textContent = t('sign.draftFailed');
    throw err;
  } finally {
    if (inFlight === run) inFlight = null;
  }
}

function schedule(): void {
  clearTimeout(timer);
  timer = setTimeout(() => void save().catch(() => {}), DELAY_MS);
}

form.addEventListener('input', schedule);
form.addEventListener('change', schedule);
// Leaving or switching away: what is pending goes now (keepalive outlives the page).
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden' && JSON.stringify(draftValues()) !== saved) void save({ keepalive: true }).catch(() => {});
});
// The signature was accepted or declined: nothing is left to save.
for (const done of ['formsign:submitted', 'formsign:declined']) document.addEventListener(done, () => {
  clearTimeout(timer);
  saved = JSON.stringify(draftValues());
});

laterButton.addEventListener('click', async () => {
  laterButton.disabled = true;
  try {
    const answer = await save({ sendLink: true });
    statusLine.textContent = answer?.link_sent ? t('sign.laterSent') : t('sign.laterRecent');
  } catch (err) {
    statusLine.textContent = err instanceof Error && err.message ? err.message : t('sign.draftFailed');
  } finally {
    laterButton.disabled = false;
  }
});
