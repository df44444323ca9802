import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { api, errorMessage, type ApiKey, type List, type Mode } from '../api';
import { useApp } from '../mode';
import { Empty, ErrorNote, formatDate, formatDateTime, Notice, PageTitle, Spinner } from '../ui/ui';

// The developers area: API keys of both modes. A new key is shown once, with a copy button; the list
// shows only its prefix and last four characters, who made it and when it was last used.

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; keys: ApiKey[] };

export function KeysPage() {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [created, setCreated] = useState<ApiKey | null>(null);
  const fetchKeys = useCallback(async () => {
    try {
      setLoad({ state: 'ready', keys: (await api<List<ApiKey>>('GET', '/keys')).data });
    } catch (err) {
      setLoad({ state: 'error', message: errorMessage(err) });
    }
  }, []);
  useEffect(() => {
    document.title = 'API keys · Formsign';
    void fetchKeys();
  }, [fetchKeys]);

  return (
    <>
      <PageTitle>API keys</PageTitle>
      <p className="lead">Keys let your code call the Formsign API. Test keys (<code>fk_test_</code>) see test data only; live keys (<code>fk_live_</code>) see live data and need a paid plan. Read <a href="/docs">the API reference</a> to get started.</p>
      <CreateKey onCreated={(k) => { setCreated(k); void fetchKeys(); }} />
      {created ? <NewKey apiKey={created} onDone={() => setCreated(null)} /> : null}
      <section className="section" aria-labelledby="keys-title">
        <h2 id="keys-title">Your keys</h2>
        {load.state === 'loading' ? <Spinner label="Loading keys…" /> : null}
        {load.state === 'error' ? <ErrorNote onRetry={() => void fetchKeys()}>{load.message}</ErrorNote> : null}
        {load.state === 'ready' && load.keys.length === 0 ? (
          <Empty title="No API keys yet">
            <p>Create a test key above, then list your templates with it: <code>curl {location.origin}/api/v1/templates -H "Authorization: Bearer fk_test_…"</code></p>
          </Empty>
        ) : null}
        {load.state === 'ready' && load.keys.length > 0 ? <KeyTable keys={load.keys} onChanged={() => void fetchKeys()} /> : null}
      </section>
    </>
  );
}

function CreateKey({ onCreated }: { onCreated: (k: ApiKey) => void }) {
  const { session } = useApp();
  const paid = session.account.plan === 'paid';
  const [mode, setMode] = useState<Mode>('test');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const label = new FormData(form).get('label');
    setBusy(true);
    setError(null);
    try {
      onCreated(await api<ApiKey>('POST', '/keys', { mode, label: typeof label === 'string' && label.trim() ? label.trim() : undefined }));
      form.reset();
      setMode('test');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card create-key" onSubmit={(e) => void submit(e)} aria-labelledby="create-key-title">
      <h2 id="create-key-title">Create a key</h2>
      <div className="create-key-row">
        <div className="field grow">
          <label htmlFor="key-label">Label</label>
          <input id="key-label" name="label" type="text" maxLength={100} placeholder="e.g. Production server, CI, Zapier" />
        </div>
        <fieldset className="field radio-group">
          <legend>Mode</legend>
          <label><input type="radio" name="mode" value="test" checked={mode === 'test'} onChange={() => setMode('test')} /> Test</label>
          <label className={paid ? '' : 'disabled'}><input type="radio" name="mode" value="live" checked={mode === 'live'} disabled={!paid} onChange={() => setMode('live')} aria-describedby={paid ? undefined : 'live-help'} /> Live</label>
        </fieldset>
        <button type="submit" className="btn primary" disabled={busy}>{busy ? 'Creating…' : 'Create key'}</button>
      </div>
      {!paid ? <p className="hint" id="live-help">Live keys need a paid plan; this account is on the trial plan.</p> : null}
      {error ? <div className="note error" role="alert">{error}</div> : null}
    </form>
  );
}

function NewKey({ apiKey, onDone }: { apiKey: ApiKey; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(apiKey.key ?? '');
      setCopied(true);
    } catch {
      // No clipboard permission (an http address other than localhost): select the text instead.
      const el = document.getElementById('new-key-value');
      if (el) window.getSelection()?.selectAllChildren(el);
    }
  };
  return (
    <div className="card new-key" ref={ref} tabIndex={-1} role="region" aria-labelledby="new-key-title">
      <h2 id="new-key-title">Your new {apiKey.mode} key{apiKey.label ? ` “${apiKey.label}”` : ''}</h2>
      <Notice tone="warning"><strong>Copy it now: it is shown only this once.</strong> Formsign keeps only a hash of it. If you lose it, revoke it and create another.</Notice>
      <div className="key-box">
        <code id="new-key-value">{apiKey.key}</code>
        <button type="button" className="btn secondary" onClick={() => void copy()}>{copied ? 'Copied' : 'Copy'}</button>
      </div>
      <span className="visually-hidden" role="status">{copied ? 'The key is copied to the clipboard.' : ''}</span>
      <button type="button" className="btn ghost" onClick={onDone}>I have copied it</button>
    </div>
  );
}

function KeyTable({ keys, onChanged }: { keys: ApiKey[]; onChanged: () => void }) {
  const [confirming, setConfirming] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const revoke = async (k: ApiKey) => {
    setError(null);
    try {
      await api('POST', `/keys/${k.id}/revoke`);
      setConfirming(null);
      onChanged();
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr><th scope="col">Label</th><th scope="col">Key</th><th scope="col">Mode</th><th scope="col" className="hide-sm">Created</th><th scope="col" className="hide-sm">Last used</th><th scope="col"><span className="visually-hidden">Status or action</span></th></tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.id} className={k.revoked_at ? 'revoked' : undefined}>
                <td>{k.label ?? <span className="muted">No label</span>}</td>
                <td><code>{k.display}</code></td>
                <td><span className={`mode-tag ${k.mode}`}>{k.mode}</span></td>
                <td className="hide-sm">{formatDate(k.created_at)}<div className="muted small">by {k.created_by ?? 'the operator'}</div></td>
                <td className="hide-sm">{formatDateTime(k.last_used_at)}</td>
                <td className="actions-cell">
                  {k.revoked_at ? <span className="muted">Revoked {formatDate(k.revoked_at)}</span> : confirming === k.id ? (
                    <span className="confirm">
                      <button type="button" className="btn small danger" onClick={() => void revoke(k)}>Revoke now</button>
                      <button type="button" className="btn small ghost" onClick={() => setConfirming(null)}>Cancel</button>
                    </span>
                  ) : (
                    <button type="button" className="btn small secondary" onClick={() => setConfirming(k.id)} aria-label={`Revoke key ${k.display}${k.label ? ` (${k.label})` : ''}`}>Revoke</button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
