import { useEffect, useState, type FormEvent } from 'react';
import { api, ApiError, errorMessage } from '../api';
import { Notice, Spinner } from '../ui/ui';

// Settings → notifications (the messages issue's GET/PATCH /dashboard/api/settings/notifications):
// where the account hears of completed and declined forms, and whether of each first view.

interface NotifySettings {
  object: 'notification_settings';
  notify_email: string | null;
  notify_viewed: boolean;
}

export function NotifySettingsForm() {
  const [settings, setSettings] = useState<NotifySettings | null>(null);
  const [error, setError] = useState<{ message: string; param?: string | undefined } | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api<NotifySettings>('GET', '/settings/notifications').then(setSettings, (e: unknown) => setError({ message: errorMessage(e) }));
  }, []);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const email = String(data.get('notify_email') ?? '').trim();
    setBusy(true);
    setError(null);
    setDone(false);
    try {
      setSettings(await api<NotifySettings>('PATCH', '/settings/notifications', { notify_email: email === '' ? null : email, notify_viewed: data.get('notify_viewed') === 'on' }));
      setDone(true);
    } catch (err) {
      setError({ message: errorMessage(err), param: err instanceof ApiError ? err.param : undefined });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card narrow" aria-labelledby="notify-title">
      <h2 id="notify-title">Notifications</h2>
      {!settings && !error ? <Spinner label="Loading…" /> : null}
      {settings ? (
        <form onSubmit={(e) => void submit(e)} noValidate>
          <div className={`field${error?.param === 'notify_email' ? ' invalid' : ''}`}>
            <label htmlFor="notify-email">Notify this address</label>
            <input id="notify-email" name="notify_email" type="email" autoComplete="email" defaultValue={settings.notify_email ?? ''} aria-describedby="notify-email-hint" aria-invalid={error?.param === 'notify_email' ? true : undefined} />
            <p className="hint" id="notify-email-hint">Told when a form is signed (with the PDF) or declined; also the Reply-To of your messages. Empty: no notices.</p>
            {error?.param === 'notify_email' ? <p className="field-error">{error.message}</p> : null}
          </div>
          <label className="check"><input type="checkbox" name="notify_viewed" defaultChecked={settings.notify_viewed} /> Also when a signer first opens a form</label>
          {done ? <Notice tone="success">Notifications saved.</Notice> : null}
          {error && error.param !== 'notify_email' ? <div className="note error" role="alert">{error.message}</div> : null}
          <button type="submit" className="btn primary" disabled={busy}>{busy ? 'Saving…' : 'Save notifications'}</button>
        </form>
      ) : error ? <div className="note error" role="alert">{error.message}</div> : null}
    </section>
  );
}
