import { useEffect, useState, type FormEvent } from 'react';
import { api, errorMessage } from '../api';
import { Notice, Spinner } from '../ui/ui';

// Settings → data retention (GET/PUT /dashboard/api/settings/retention, what `formsign accounts
// set-retention` sets, issue 40): how many days after a form finishes it is purged, or kept.

interface RetentionSettings {
  object: 'retention_settings';
  retention_days: number | null;
}

export function RetentionSettingsForm() {
  const [settings, setSettings] = useState<RetentionSettings | null>(null);
  const [keep, setKeep] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api<RetentionSettings>('GET', '/settings/retention').then((s) => { setSettings(s); setKeep(s.retention_days === null); }, (e: unknown) => setError(errorMessage(e)));
  }, []);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const days = String(new FormData(e.currentTarget).get('days') ?? '');
    setBusy(true);
    setError(null);
    setDone(false);
    try {
      setSettings(await api<RetentionSettings>('PUT', '/settings/retention', { retention_days: keep ? null : Number(days) }));
      setDone(true);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card narrow" aria-labelledby="retention-title">
      <h2 id="retention-title">Data retention</h2>
      {!settings && !error ? <Spinner label="Loading…" /> : null}
      {settings ? (
        <form onSubmit={(e) => void submit(e)} noValidate>
          <fieldset className="field">
            <legend>Finished forms (signed, declined, voided, expired)</legend>
            <label><input type="radio" name="keep" checked={keep} onChange={() => setKeep(true)} /> Keep until deleted</label>
            <label><input type="radio" name="keep" checked={!keep} onChange={() => setKeep(false)} /> Delete for good after{' '}
              <input type="number" name="days" min={1} max={3650} step={1} defaultValue={settings.retention_days ?? 365} disabled={keep} aria-label="Days after a form finishes" style={{ width: '6em' }} /> days</label>
            <p className="hint">A daily job purges each finished form that many days after it finished: values, names, addresses, IPs, messages and PDFs are deleted; a tombstone with the signed PDF’s SHA-256 stays. Forms on legal hold are never purged.</p>
          </fieldset>
          {done ? <Notice tone="success">{settings.retention_days === null ? 'Finished forms are kept until deleted.' : `Finished forms are deleted ${settings.retention_days} days after they finish.`}</Notice> : null}
          {error ? <div className="note error" role="alert">{error}</div> : null}
          <button type="submit" className="btn primary" disabled={busy}>{busy ? 'Saving…' : 'Save retention'}</button>
        </form>
      ) : error ? <div className="note error" role="alert">{error}</div> : null}
    </section>
  );
}
