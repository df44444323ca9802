import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, ApiError, errorMessage, type List } from '../api';
import { useApp } from '../mode';
import { Notice, Spinner } from '../ui/ui';

// Settings → embedded signing: the origins whose pages may show this mode's signing pages in a frame
// (the API's /api/v1/embed/origins through /dashboard/api/:mode/embed/origins). Without any, signing
// pages cannot be framed at all.

interface EmbedOrigin {
  object: 'embed_origin';
  origin: string;
  mode: 'test' | 'live';
  created_at: string;
}

export function EmbedOriginsForm() {
  const { mode } = useApp();
  const [origins, setOrigins] = useState<EmbedOrigin[] | null>(null);
  const [error, setError] = useState<{ message: string; param?: string | undefined } | null>(null);
  const [announce, setAnnounce] = useState('');
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const load = useCallback(async () => {
    setOrigins((await api<List<EmbedOrigin>>('GET', `/${mode}/embed/origins`)).data);
  }, [mode]);
  useEffect(() => {
    load().catch((e: unknown) => setError({ message: errorMessage(e) }));
  }, [load]);
  const change = async (run: () => Promise<string>) => {
    setBusy(true);
    setError(null);
    try {
      setAnnounce(await run());
      await load();
    } catch (err) {
      setError({ message: errorMessage(err), param: err instanceof ApiError ? err.param : undefined });
    } finally {
      setBusy(false);
    }
  };
  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void change(async () => {
      const added = await api<EmbedOrigin>('POST', `/${mode}/embed/origins`, { origin: value.trim() });
      setValue('');
      return `${added.origin} may now embed signing pages.`;
    });
  };
  const remove = (origin: string) => void change(async () => {
    await api('DELETE', `/${mode}/embed/origins?origin=${encodeURIComponent(origin)}`);
    return `${origin} removed.`;
  });
  const invalid = error?.param === 'origin';
  return (
    <section className="card narrow" aria-labelledby="embed-title">
      <h2 id="embed-title">Embedded signing <span className="muted small">({mode} mode)</span></h2>
      <p className="muted small">Sites allowed to show your signing pages inside a frame (<code>&lt;formsign-signing&gt;</code>). Without any, signing pages cannot be framed.</p>
      {!origins && !error ? <Spinner label="Loading…" /> : null}
      {origins ? (
        origins.length === 0 ? <p className="muted">No origins yet.</p> : (
          <ul className="origin-list" aria-label="Allowed origins">
            {origins.map((o) => (
              <li key={o.origin}>
                <code>{o.origin}</code>
                <button type="button" className="btn ghost small" onClick={() => remove(o.origin)} disabled={busy} aria-label={`Remove ${o.origin}`}>Remove</button>
              </li>
            ))}
          </ul>
        )
      ) : null}
      <form onSubmit={add} noValidate className="origin-add">
        <div className={`field${invalid ? ' invalid' : ''}`}>
          <label htmlFor="embed-origin">Add an origin</label>
          <input id="embed-origin" type="url" inputMode="url" autoComplete="off" placeholder="https://app.example.com" value={value} onChange={(e) => setValue(e.target.value)} required aria-describedby="embed-origin-hint" aria-invalid={invalid ? true : undefined} />
          <p className="hint" id="embed-origin-hint">Scheme, host and port only, e.g. <code>https://app.example.com</code>; no path.</p>
          {invalid ? <p className="field-error">{error.message}</p> : null}
        </div>
        {error && !invalid ? <div className="note error" role="alert">{error.message}</div> : null}
        {announce && !error ? <Notice tone="success">{announce}</Notice> : null}
        <button type="submit" className="btn primary" disabled={busy || value.trim() === ''}>{busy ? 'Saving…' : 'Add origin'}</button>
      </form>
    </section>
  );
}
