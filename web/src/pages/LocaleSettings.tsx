import { useEffect, useState, type FormEvent } from 'react';
import { api, errorMessage } from '../api';
import { Notice, Spinner } from '../ui/ui';

// Settings → signers' language (GET/PUT /dashboard/api/settings/locale, what `formsign accounts
// set-locale` sets): the language of the signing page and the messages for a signer who was sent no
// language and whose browser names none we have. Each language is listed by its own name.

interface LocaleSettings {
  object: 'locale_settings';
  locale: string | null;
  languages: Array<{ tag: string; name: string }>;
}

export function LocaleSettingsForm() {
  const [settings, setSettings] = useState<LocaleSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api<LocaleSettings>('GET', '/settings/locale').then(setSettings, (e: unknown) => setError(errorMessage(e)));
  }, []);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const tag = String(new FormData(e.currentTarget).get('locale') ?? '');
    setBusy(true);
    setError(null);
    setDone(false);
    try {
      // English is the default: choosing it clears the setting rather than pinning it.
      setSettings(await api<LocaleSettings>('PUT', '/settings/locale', { locale: tag === '' || tag === 'en' ? null : tag }));
      setDone(true);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card narrow" aria-labelledby="locale-title">
      <h2 id="locale-title">Signers' language</h2>
      {!settings && !error ? <Spinner label="Loading…" /> : null}
      {settings ? (
        <form onSubmit={(e) => void submit(e)} noValidate>
          <div className="field">
            <label htmlFor="locale">Default language</label>
            <select id="locale" name="locale" defaultValue={settings.locale ?? 'en'} key={settings.locale ?? 'en'} aria-describedby="locale-hint">
              {settings.languages.map((l) => <option key={l.tag} value={l.tag} lang={l.tag}>{l.name}</option>)}
            </select>
            <p className="hint" id="locale-hint">The signing page and the messages are in this language when a form was sent without one and the signer's browser asks for none we have. A signer can always switch language on the page.</p>
          </div>
          {done ? <Notice tone="success">The default language is saved.</Notice> : null}
          {error ? <div className="note error" role="alert">{error}</div> : null}
          <button type="submit" className="btn primary" disabled={busy}>{busy ? 'Saving…' : 'Save language'}</button>
        </form>
      ) : error ? <div className="note error" role="alert">{error}</div> : null}
    </section>
  );
}
