// "Not me? Assign to someone else" (reassign-html.ts): posts the new person and the reason as JSON, with
// the page's header, to the page's own address. The server answers once the link is replaced; this
// link stops working then, so the page says what happened in place instead of navigating.

const root = document.getElementById('reassign');
if (root) {
  const config = JSON.parse(root.dataset.config);
  const T = config.text;
  const form = document.getElementById('reassign-form');
  const error = document.getElementById('reassign-error');
  const submit = document.getElementById('reassign-submit');
  const fields = { name: document.getElementById('reassign-name'), email: document.getElementById('reassign-email'), reason: document.getElementById('reassign-reason') };

  function fail(message, field) {
    error.textContent = message;
    error.hidden = false;
    for (const input of Object.values(fields)) input.removeAttribute('aria-invalid');
    if (field) {
      field.setAttribute('aria-invalid', 'true');
      field.focus();
    }
  }

  /** The server's refusal in the signer's language, by its code and parameter. */
  function refusal(status, json) {
    const code = json?.error?.code;
    const param = json?.error?.param;
    if (code === 'form_already_sent') return [T.taken, fields.email];
    if (param === 'reason') return [T.missingReason, fields.reason];
    if (param === 'name') return [T.invalidName, fields.name];
    if (code === 'parameter_invalid' || code === 'parameter_missing') return [T.invalidEmail, fields.email];
    if (code === 'auth_required' || status === 410) return [T.expired, null];
    return [T.failed.replace('{status}', String(status)), null];
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const email = fields.email.value.trim();
    const reason = fields.reason.value.trim();
    const name = fields.name.value.trim();
    if (email === '' || !fields.email.checkValidity()) return fail(T.invalidEmail, fields.email);
    if (reason === '') return fail(T.missingReason, fields.reason);
    error.hidden = true;
    submit.disabled = true;
    submit.textContent = T.sending;
    try {
      const res = await fetch(config.post, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-formsign-signing': '1' },
        body: JSON.stringify({ email, reason, ...(name ? { name } : {}) }),
        credentials: 'same-origin',
        referrerPolicy: 'no-referrer',
      });
      const json = await res.json().catch(() => null);
      if (!res.ok) {
        const [message, field] = refusal(res.status, json);
        fail(message, field);
        return;
      }
      form.hidden = true;
      document.getElementById('reassign-lead').hidden = true;
      document.getElementById('reassign-done-text').textContent = T.done.replace('{who}', `\u2068${name || email}\u2069`);
      document.getElementById('reassign-done').hidden = false;
    } catch {
      fail(T.network, null);
    } finally {
      submit.disabled = false;
      submit.textContent = T.submit;
    }
  });
}
