import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { EVENT_TYPES } from '../../../src/generated/lists';
import { api, errorMessage, type List, type Webhook, type WebhookDelivery, type WebhookEventType, type WebhookWithSecret } from '../api';
import { mayCall } from '../../../src/lib/dashboard-permissions';
import { useApp } from '../mode';
import { usePoll } from '../poll';
import { Empty, ErrorNote, formatDateTime, Notice, PageTitle, Spinner } from '../ui/ui';
import { StatusTag } from './status';

// Webhooks of the current mode: create (the signing secret shown once), enable or disable, edit the
// events, rotate the secret, send a test event, and each one's delivery log with retry.

// Every event type the API knows (openapi.yaml's EventType, through src/generated/lists.ts).
const EVENTS: readonly WebhookEventType[] = EVENT_TYPES;

export function WebhooksPage() {
  const { mode, session } = useApp();
  const [hooks, setHooks] = useState<Webhook[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ hook: WebhookWithSecret; rotated: boolean } | null>(null);
  const load = useCallback(async () => {
    try {
      setHooks((await api<List<Webhook>>('GET', `/${mode}/webhooks`)).data);
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  }, [mode]);
  useEffect(() => {
    document.title = 'Webhooks · Formsign';
    void load();
  }, [load]);
  return (
    <>
      <PageTitle>Webhooks</PageTitle>
      <p className="lead">Formsign POSTs each event to your URL, signed with <code>Service-Signature</code> (HMAC-SHA256 with the webhook's secret) and retried for three days. Check the signature with <code>verifyWebhook</code> from the TypeScript client.</p>
      {mayCall(session.user.role, 'POST /:mode/webhooks') ? <CreateWebhook onCreated={(h) => { setSecret({ hook: h, rotated: false }); void load(); }} /> : null}
      {secret ? <SecretBox hook={secret.hook} rotated={secret.rotated} onDone={() => setSecret(null)} /> : null}
      <section className="section" aria-labelledby="hooks-title">
        <h2 id="hooks-title">Your webhooks <span className="mode-tag">{mode}</span></h2>
        {error ? <ErrorNote onRetry={() => void load()}>{error}</ErrorNote> : null}
        {!hooks && !error ? <Spinner label="Loading webhooks…" /> : null}
        {hooks && hooks.length === 0 ? <Empty title="No webhooks yet"><p>Add your endpoint's URL above and choose the events it receives.</p></Empty> : null}
        {hooks?.map((h) => <WebhookCard key={h.id} hook={h} onChanged={() => void load()} onRotated={(w) => setSecret({ hook: w, rotated: true })} />)}
      </section>
    </>
  );
}

function EventChoices({ chosen, onChange, idPrefix }: { chosen: WebhookEventType[]; onChange(e: WebhookEventType[]): void; idPrefix: string }) {
  return (
    <fieldset className="field event-choices">
      <legend>Events</legend>
      {EVENTS.map((ev) => (
        <label key={ev} htmlFor={`${idPrefix}-${ev}`}><input id={`${idPrefix}-${ev}`} type="checkbox" checked={chosen.includes(ev)} onChange={(e) => onChange(e.target.checked ? [...chosen, ev] : chosen.filter((x) => x !== ev))} /> {ev}</label>
      ))}
    </fieldset>
  );
}

function CreateWebhook({ onCreated }: { onCreated(h: WebhookWithSecret): void }) {
  const { mode } = useApp();
  const [events, setEvents] = useState<WebhookEventType[]>(['form.signed']);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const description = String(data.get('description') ?? '').trim();
    setBusy(true);
    setError(null);
    try {
      onCreated(await api<WebhookWithSecret>('POST', `/${mode}/webhooks`, { url: String(data.get('url') ?? '').trim(), events, ...(description ? { description } : {}) }));
      form.reset();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby="new-hook-title" noValidate>
      <h2 id="new-hook-title">Add a webhook</h2>
      <div className="upload-row">
        <div className="field grow">
          <label htmlFor="hook-url">Endpoint URL</label>
          <input id="hook-url" name="url" type="url" required placeholder="https://example.com/formsign-hooks" maxLength={2048} />
        </div>
        <div className="field grow">
          <label htmlFor="hook-description">Description <span className="muted">(optional)</span></label>
          <input id="hook-description" name="description" type="text" maxLength={500} />
        </div>
      </div>
      <EventChoices chosen={events} onChange={setEvents} idPrefix="new-ev" />
      {error ? <div className="note error" role="alert">{error}</div> : null}
      <button type="submit" className="btn primary" disabled={busy}>{busy ? 'Adding…' : 'Add webhook'}</button>
    </form>
  );
}

function SecretBox({ hook, rotated, onDone }: { hook: WebhookWithSecret; rotated: boolean; onDone(): void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="card new-key" role="region" aria-labelledby="secret-title">
      <h2 id="secret-title">{rotated ? 'The new signing secret' : 'Signing secret'} of {hook.url}</h2>
      <Notice tone="warning"><strong>Copy it now: it is shown only this once.</strong>{rotated ? ' For the next 24 hours deliveries carry two signatures, one with the new secret and one with the old, so your receiver can switch at its own pace.' : ' Your receiver verifies each delivery with it.'}</Notice>
      <div className="key-box">
        <code id="secret-value">{hook.signing_secret}</code>
        <button type="button" className="btn secondary" onClick={() => void navigator.clipboard.writeText(hook.signing_secret).then(() => setCopied(true), () => window.getSelection()?.selectAllChildren(document.getElementById('secret-value')!))}>{copied ? 'Copied' : 'Copy'}</button>
      </div>
      <span className="visually-hidden" role="status">{copied ? 'The secret is copied to the clipboard.' : ''}</span>
      <button type="button" className="btn ghost" onClick={onDone}>I have copied it</button>
    </div>
  );
}

function WebhookCard({ hook, onChanged, onRotated }: { hook: Webhook; onChanged(): void; onRotated(h: WebhookWithSecret): void }) {
  const { mode, session } = useApp();
  // Senders read a webhook and its deliveries; changing it is an admin's.
  const manage = mayCall(session.user.role, 'PATCH /:mode/webhooks/:webhook_id');
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [events, setEvents] = useState<WebhookEventType[]>(hook.events);
  const [logOpen, setLogOpen] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const base = `/${mode}/webhooks/${hook.id}`;
  const act = async (fn: () => Promise<void>, done?: string) => {
    setError(null);
    setNote(null);
    try {
      await fn();
      if (done) setNote(done);
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const enabled = hook.status === 'enabled';
  return (
    <article className="card webhook" aria-labelledby={`hook-${hook.id}`}>
      <header className="webhook-head">
        <h3 id={`hook-${hook.id}`}><code>{hook.url}</code></h3>
        <StatusTag status={hook.status} />
      </header>
      {hook.description ? <p className="muted">{hook.description}</p> : null}
      <p className="small">Events: {hook.events.join(', ')} · <span className="muted">since {formatDateTime(hook.created_at)} · <code className="id">{hook.id}</code></span></p>
      {editing ? (
        <div className="edit-events">
          <EventChoices chosen={events} onChange={setEvents} idPrefix={`ev-${hook.id}`} />
          <button type="button" className="btn primary small" onClick={() => void act(async () => { await api('PATCH', base, { events }); setEditing(false); onChanged(); }, 'Events saved.')}>Save events</button>
          <button type="button" className="btn ghost small" onClick={() => { setEvents(hook.events); setEditing(false); }}>Cancel</button>
        </div>
      ) : null}
      <div className="actions">
        {manage ? <>
        <button type="button" className="btn primary small" disabled={!enabled} onClick={() => void act(async () => { await api('POST', `${base}/test`); setLogOpen(true); }, 'Test event sent: see the delivery log.')}>Send test event</button>
        <button type="button" className="btn secondary small" onClick={() => void act(async () => { await api('PATCH', base, { status: enabled ? 'disabled' : 'enabled' }); onChanged(); })}>{enabled ? 'Disable' : 'Enable'}</button>
        {!editing ? <button type="button" className="btn secondary small" onClick={() => setEditing(true)}>Edit events</button> : null}
        <button type="button" className="btn secondary small" onClick={() => void act(async () => onRotated(await api<WebhookWithSecret>('POST', `${base}/rotate-secret`)))}>Rotate secret</button>
        </> : null}
        <button type="button" className="btn secondary small" aria-expanded={logOpen} onClick={() => setLogOpen((v) => !v)}>{logOpen ? 'Hide deliveries' : 'Deliveries'}</button>
        {!manage ? null : confirm ? (
          <span className="confirm">
            <button type="button" className="btn danger small" onClick={() => void act(async () => { await api('DELETE', base); onChanged(); })}>Delete now</button>
            <button type="button" className="btn ghost small" onClick={() => setConfirm(false)}>Cancel</button>
          </span>
        ) : <button type="button" className="btn ghost small danger-text" onClick={() => setConfirm(true)}>Delete…</button>}
      </div>
      {!enabled ? <p className="hint">Disabled: it receives no events (and no test event) until enabled.</p> : null}
      {note ? <Notice tone="success">{note}</Notice> : null}
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      {logOpen ? <DeliveryLog base={base} /> : null}
    </article>
  );
}

function DeliveryLog({ base }: { base: string }) {
  const [rows, setRows] = useState<WebhookDelivery[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    setRows((await api<List<WebhookDelivery>>('GET', `${base}/deliveries`)).data);
  }, [base]);
  usePoll(async () => {
    try {
      await load();
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  }, 2000, [load]);
  if (!rows) return error ? <ErrorNote>{error}</ErrorNote> : <Spinner label="Loading deliveries…" />;
  if (rows.length === 0) return <p className="muted">No deliveries yet (kept 30 days).</p>;
  return (
    <div className="table-wrap delivery-log" tabIndex={0} role="region" aria-label="Delivery log">
      <table className="table">
        <caption className="visually-hidden">Deliveries, newest first</caption>
        <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col" className="hide-sm">Attempts</th><th scope="col" className="hide-sm">Last answer</th><th scope="col"><span className="visually-hidden">Action</span></th></tr></thead>
        <tbody>
          {rows.map((d) => {
            const last = d.attempt_log.at(-1);
            return (
              <tr key={d.id}>
                <td>{d.event_type}<div className="muted small">{formatDateTime(d.created_at)}</div></td>
                {/* On a phone the attempts fold under the status, so the log fits without scrolling sideways. */}
                <td><StatusTag status={d.status} /><div className="muted small show-sm">{d.attempts === 1 ? '1 attempt' : `${d.attempts} attempts`}</div></td>
                <td className="hide-sm">{d.attempts}{d.next_attempt_at ? <div className="muted small">next {formatDateTime(d.next_attempt_at)}</div> : null}</td>
                <td className="hide-sm">{last ? <>{last.status_code ?? 'no answer'} · {last.duration_ms} ms{last.error ? <div className="field-error">{last.error}</div> : null}{last.response_body ? <pre className="snippet">{last.response_body.slice(0, 200)}</pre> : null}</> : '—'}</td>
                <td><button type="button" className="btn ghost small" onClick={() => void api('POST', `${base}/deliveries/${d.id}/retry`).then(load, (e: unknown) => setError(errorMessage(e)))} aria-label={`Retry the ${d.event_type} delivery`}>Retry</button></td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </div>
  );
}
