// The signer's check (check-html.ts): asks for a code (auth/start) and gives it (auth/verify) as JSON,
// with the page's header, same origin. Two places use it, each a `[data-check]` element:
// - the code screen before the document opens: on success the page loads again and the gate lets it through;
// - `when: sign`, the dialog on the signing page: sign.js announces `formsign:finish-check` when the
//   server asks for the check again at Finish; the dialog opens, and once the code is right it closes
//   and the signature is submitted again.

interface Answer { destination?: string; error?: { code?: string; message?: string } }

async function post(url: string, body: object): Promise<{ res: Response; json: Answer | null }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-formsign-signing': '1' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
    referrerPolicy: 'no-referrer',
  });
  const json = (await res.json().catch(() => null)) as Answer | null;
  return { res, json };
}

/** What check-html.ts writes into the element's data-config. */
interface CheckConfig { prefix: string; start: string; verify: string; to?: string; finish?: boolean; text: Record<'locked' | 'sending' | 'failed' | 'sent' | 'resend' | 'checking' | 'wrong' | 'network' | 'confirm', string> }

function wire(root: HTMLElement): void {
  const config = JSON.parse(root.dataset['config'] ?? '{}') as CheckConfig;
  const T = config.text;
  const $ = <E extends HTMLElement = HTMLElement>(name: string): E | null => document.getElementById(`${config.prefix}-${name}`) as E | null;
  const send = $<HTMLButtonElement>('send');
  const form = $<HTMLFormElement>('form')!;
  const input = $<HTMLInputElement>('code')!;
  const status = $('status')!;
  const locked = $('locked')!;
  const confirm = $<HTMLButtonElement>('confirm')!;

  function say(message: string, error = false): void {
    status.textContent = message;
    status.classList.toggle('error', error);
  }

  function showLock(res: Response): void {
    const seconds = Number(res.headers.get('retry-after') ?? '900');
    locked.textContent = T.locked.replace('{minutes}', String(Math.max(1, Math.ceil(seconds / 60))));
    locked.hidden = false;
  }

  if (send) {
    send.addEventListener('click', async () => {
      send.disabled = true;
      send.textContent = T.sending;
      try {
        const { res, json } = await post(config.start, {});
        if (res.status === 429 && json?.error?.code === 'auth_locked') showLock(res);
        else if (!res.ok) say(json?.error?.message ?? T.failed.replace('{status}', String(res.status)), true);
        else {
          say(T.sent.replace('{to}', `\u2068${json?.destination ?? config.to}\u2069`));
          input.focus();
        }
      } catch {
        say(T.network, true);
      } finally {
        send.disabled = false;
        send.textContent = T.resend;
      }
    });
  }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const code = input.value.trim();
    if (!code) return input.focus();
    confirm.disabled = true;
    confirm.textContent = T.checking;
    try {
      const { res, json } = await post(config.verify, { code });
      if (res.ok) {
        if (!config.finish) {
          window.location.reload();
          return;
        }
        input.value = '';
        say('');
        (root as HTMLDialogElement).close();
        // The check is passed for this Finish: the signature goes again (sign.js's own submit).
        (document.getElementById('sign-form') as HTMLFormElement | null)?.requestSubmit();
        return;
      }
      if (res.status === 429 && json?.error?.code === 'auth_locked') {
        showLock(res);
        say('');
      } else if (json?.error?.code === 'auth_code_invalid') say(T.wrong.replace('{left}', res.headers.get('auth-tries-left') ?? '?'), true);
      else say(json?.error?.message ?? T.failed.replace('{status}', String(res.status)), true);
      input.select();
    } catch {
      say(T.network, true);
    } finally {
      confirm.disabled = false;
      confirm.textContent = T.confirm;
    }
  });

  if (config.finish) {
    const dialog = root as HTMLDialogElement;
    $('cancel')!.addEventListener('click', () => dialog.close());
    document.addEventListener('formsign:finish-check', () => {
      say('');
      if (!dialog.open) dialog.showModal();
      (send ?? input).focus();
    });
  }
}

for (const root of document.querySelectorAll<HTMLElement>('[data-check]')) wire(root);
