// "Decline to sign" on the signing page: a dialog with an optional reason, posted as JSON to
// /sign/<token>/decline the way the page posts a signature (the same header, same origin), then the
// page the link now shows (the form is declined).
const open = document.getElementById('decline-open');
const dialog = document.getElementById('decline-dialog');
const reason = document.getElementById('decline-reason');
const error = document.getElementById('decline-error');
const confirm = document.getElementById('decline-confirm');

function showError(message) {
  error.textContent = message;
  error.hidden = false;
}

open.addEventListener('click', () => {
  error.hidden = true;
  dialog.showModal();
  reason.focus();
});
document.getElementById('decline-cancel').addEventListener('click', () => dialog.close());
dialog.addEventListener('close', () => open.focus());

confirm.addEventListener('click', async () => {
  const text = reason.value.trim();
  if ([...text].length > 500) return showError('The reason can be at most 500 characters.');
  confirm.disabled = true;
  confirm.textContent = 'Declining…';
  try {
    const res = await fetch(open.dataset.decline, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-formsign-signing': '1' },
      body: JSON.stringify(text ? { reason: text } : {}),
      credentials: 'same-origin',
      referrerPolicy: 'no-referrer',
    });
    const body = await res.json().catch(() => null);
    if (!res.ok) throw new Error(body?.error?.message ?? `Declining did not work (HTTP ${res.status}). Please try again.`);
    // What was typed on the signing page has no use left: the form is over.
    sessionStorage.removeItem(`formsign:progress:${location.pathname}`);
    window.location.assign(body.next);
  } catch (err) {
    confirm.disabled = false;
    confirm.textContent = 'Decline';
    showError(err instanceof Error && err.message ? err.message : 'Declining did not work. Check your connection and try again.');
  }
});
