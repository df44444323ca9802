// "Not me? Assign to someone else" (reassign-html.ts): posts the new person and the reason as JSON, with
// the page's header, to the page's own address. The server answers once the link is replaced; this
// link stops working then, so the page says what happened in place instead of navigating.

/** The page's config (reassign-html.ts): where to post, and the page's words (reassign-words.ts). */
interface ReassignConfig {
  post: string;
  text: Readonly<Record<string, string>>;
}
type Field = HTMLInputElement | HTMLTextAreaElement;

const byId = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;
const root = document.getElementById('reassign');
if (root) {
  const config = JSON.parse(root.dataset['config'] as string) as ReassignConfig;
  const T = config.text;
  const form = byId<HTMLFormElement>('reassign-form');
  const error = byId('reassign-error');
  const submit = byId<HTMLButtonElement>('reassign-submit');
  const fields = { name: byId<HTMLInputElement>('reassign-name'), email: byId<HTMLInputElement>('reassign-email'), reason: byId<HTMLTextAreaElement>('reassign-reason') };

  function fail(message: string | undefined, field: Field | null): void {
    error.textContent = message ?? null;
    error.hidden = false;
    for (const input of Object.values(fields)) input.removeAttribute('aria-invalid');
    if (field) {
      field.setAttribute('aria-invalid', 'true');
      field.focus();
    }
  }

  /** The server's refusal in the signer's language, by its code and parameter. */
  function refusal(status: number, json: { error?: { code?: string; param?: string } } | null): [string | undefined, Field | null] {
    const code = json?.error?.code;
    const param = json?.error?.param;
    if (code === 'form_already_sent') return [T['taken'], fields.email];
    if (param === 'reason') return [T['missingReason'], fields.reason];
    if (param === 'name') return [T['invalidName'], fields.name];
    if (code === 'parameter_invalid' || code === 'parameter_missing') return [T['invalidEmail'], fields.email];
    if (code === 'auth_required' || status === 410) return [T['expired'], null];
    return [(T['failed'] as string).replace('{status}', String(status)), null];
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const email = fields.email.value.trim();
    const reason = fields.reason.value.trim();
    const name = fields.name.value.trim();
    if (email === '' || !fields.email.checkValidity()) return fail(T['invalidEmail'], fields.email);
    if (reason === '') return fail(T['missingReason'], fields.reason);
    error.hidden = true;
    submit.disabled = true;
    submit.textContent = T['sending'] ?? null;
    try {
      const res = await fetch(config.post, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-formsign-signing': '1' },
        body: JSON.stringify({ email, reason, ...(name ? { name } : {}) }),
        credentials: 'same-origin',
        referrerPolicy: 'no-referrer',
      });
      const json = (await res.json().catch(() => null)) as { error?: { code?: string; param?: string } } | null;
      if (!res.ok) {
        const [message, field] = refusal(res.status, json);
        fail(message, field);
        return;
      }
      form.hidden = true;
      byId('reassign-lead').hidden = true;
      byId('reassign-done-text').textContent = (T['done'] as string).replace('{who}', `\u2068${name || email}\u2069`);
      byId('reassign-done').hidden = false;
    } catch {
      fail(T['network'], null);
    } finally {
      submit.disabled = false;
      submit.textContent = T['submit'] ?? null;
    }
  });
}
