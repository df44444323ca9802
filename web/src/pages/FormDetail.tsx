import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { api, ApiError, errorMessage, getIfChanged, type Form, type FormEvent as FormEventView, type List, type Template } from '../api';
import { useApp } from '../mode';
import { usePoll } from '../poll';
import { roleName, type SignerRole } from '../roles';
import { Link } from '../router';
import { ErrorNote, formatDateTime, Notice, PageTitle, Spinner } from '../ui/ui';
import { FormActions } from './FormActions';
import { FormDataActions } from './FormDataActions';
import { canChange, ChangeRecipientButton, VerificationSection } from './RecipientChecks';
import { blankRecipient, RecipientsEditor, toSendRecipients, type RecipientDraft } from './RecipientsEditor';
import { defaultSendOptions, SendOptions, toSendOptions } from './SendOptions';
import { StatusTag } from './status';

// One form: its status, fields and values, recipients with their delivery, the event timeline, the
// filled and the signed PDF, each signing link (test mode), sending to more recipients (the first send
// with its signing order and reminders), and Remind and Void while it is out for signing. Asked
// again every 2.5 s with its ETag (304 while unchanged): a signature elsewhere shows up by itself.

const SENDABLE = new Set(['draft', 'sent', 'viewed']);

export function FormDetail({ formId }: { formId: string }) {
  const { mode } = useApp();
  const [form, setForm] = useState<Form | null>(null);
  const [events, setEvents] = useState<FormEventView[]>([]);
  const [error, setError] = useState<string | null>(null);
  const formTag = useRef<string | null>(null);
  const eventsTag = useRef<string | null>(null);
  const base = `/${mode}/forms/${encodeURIComponent(formId)}`;

  const refresh = useCallback(async () => {
    try {
      const f = await getIfChanged<Form>(base, formTag);
      if (f) setForm(f);
      const e = await getIfChanged<List<FormEventView>>(`${base}/events`, eventsTag);
      if (e) setEvents(e.data);
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  }, [base]);
  usePoll(refresh, 2500, [refresh]);
  // The template's named slots ("Tenant"), shown for each recipient and field; none for a generated
  // form or a deleted template (its slots read "Signer N").
  const [roles, setRoles] = useState<SignerRole[]>([]);
  const templateId = form?.template_id;
  useEffect(() => {
    if (!templateId) return;
    api<Template>('GET', `/${mode}/templates/${encodeURIComponent(templateId)}`).then((t) => setRoles(t.signers ?? []), () => setRoles([]));
  }, [mode, templateId]);
  useEffect(() => {
    document.title = `${form?.name ?? 'Form'} · Formsign`;
  }, [form?.name]);

  if (!form) return error ? <ErrorNote onRetry={() => void refresh()}>{error}</ErrorNote> : <Spinner label="Opening the form…" />;
  const signed = form.status === 'signed';
  const signers = Math.max(1, ...form.fields.map((f) => f.signer));
  return (
    <>
      <p className="crumbs"><Link to="/dashboard/forms">← Forms</Link></p>
      <PageTitle actions={<>
        {form.status !== 'deleted' ? <a className="btn secondary" href={`/dashboard/api${base}/pdf`} target="_blank" rel="noopener">Filled PDF</a> : null}
        {signed ? <a className="btn primary" href={`/dashboard/api${base}/signed-pdf`} download>Download signed PDF</a> : null}
        {signed ? <a className="btn secondary" href={`/dashboard/api${base}/evidence`} download>Download evidence</a> : null}
      </>}>{form.name ?? (form.status === 'deleted' ? 'Deleted form' : form.id)}</PageTitle>
      <p className="form-status">Status: <StatusTag status={form.status} /> <span className="muted small"><code className="id">{form.id}</code></span></p>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <dl className="facts">
        <dt>Created</dt><dd>{formatDateTime(form.created_at)}</dd>
        {form.sent_at ? <><dt>Sent</dt><dd>{formatDateTime(form.sent_at)}</dd></> : null}
        {form.completed_at ? <><dt>Completed</dt><dd>{formatDateTime(form.completed_at)}</dd></> : null}
        {form.expires_at ? <><dt>Expires</dt><dd>{formatDateTime(form.expires_at)}</dd></> : null}
        {form.recipients.length > 0 ? <><dt>Signing order</dt><dd>{form.signing_order === 'sequential' ? 'One after another' : 'All at once'}</dd></> : null}
        {form.reminders ? <><dt>Reminders</dt><dd>Every {form.reminders.every_days} day{form.reminders.every_days === 1 ? '' : 's'}, at most {form.reminders.max}</dd></> : null}
        {form.voided_at ? <><dt>Voided</dt><dd>{formatDateTime(form.voided_at)}{form.void_reason ? <div className="decline-reason">Reason: {form.void_reason}</div> : null}</dd></> : null}
      </dl>
      <FormActions form={form} onChanged={(f) => { setForm(f); void refresh(); }} />
      <FormDataActions form={form} onChanged={(f) => { setForm(f); void refresh(); }} />

      {/* A deleted form's recipients and values are gone: its tombstone and timeline are what is left. */}
      {form.status === 'deleted' ? null : (<>
      <section className="section" aria-labelledby="recipients-title">
        <h2 id="recipients-title">Recipients</h2>
        {form.recipients.length === 0 ? <p className="muted">Not sent yet. Add who signs below.</p> : (
          <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="recipients-title">
            <table className="table">
              <thead><tr><th scope="col">Recipient</th><th scope="col">Status</th><th scope="col" className="hide-sm">Delivery</th><th scope="col" className="hide-sm">Signer</th>{mode === 'test' ? <th scope="col">Signing link</th> : null}</tr></thead>
              <tbody>
                {form.recipients.map((r) => (
                  <tr key={r.id}>
                    <td>{r.name || r.email || r.phone}<div className="muted small">{r.channel === 'sms' ? r.phone : r.email}</div>{canChange(form, r) ? <ChangeRecipientButton form={form} recipient={r} onChanged={(f) => { setForm(f); void refresh(); }} /> : null}</td>
                    <td><StatusTag status={r.status} />{recipientNote(r)}</td>
                    <td className="hide-sm"><StatusTag status={r.delivery_status} />{r.delivery_error ? <div className="field-error">{r.delivery_error}</div> : null}</td>
                    <td className="hide-sm">{r.role === 'signer' ? roleName(roles, r.signer) : { approver: 'Approver', cc: 'Copy (cc)', viewer: 'Viewer' }[r.role]}</td>
                    {mode === 'test' ? <td><CopyLink url={r.signing_url} who={r.name || r.email || r.phone || 'recipient'} /></td> : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {form.recipients.length > 0 ? <VerificationSection form={form} /> : null}
        {SENDABLE.has(form.status) ? <SendMore form={form} signers={signers} roles={roles} onSent={(f) => { setForm(f); void refresh(); }} /> : null}
      </section>

      <section className="section" aria-labelledby="fields-title">
        <h2 id="fields-title">Fields</h2>
        <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="fields-title">
          <table className="table">
            <thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Value</th><th scope="col" className="hide-sm">Signer</th></tr></thead>
            <tbody>
              {form.fields.map((f) => (
                <tr key={f.name}>
                  <td>{f.label || f.name}{f.label ? <div className="muted small">{f.name}</div> : null}</td>
                  <td>{f.type}</td>
                  <td>{showValue(f.value, f.type)}</td>
                  <td className="hide-sm">{roleName(roles, f.signer)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      </>)}
      <section className="section" aria-labelledby="events-title">
        <h2 id="events-title">Timeline</h2>
        {events.length === 0 ? <p className="muted">No events yet.</p> : (
          <ol className="timeline">
            {events.map((e) => <li key={e.id}><StatusTag status={e.type.replace('form.', '')} /> <span>{e.type}</span> <span className="muted small">{formatDateTime(e.created_at)}</span></li>)}
          </ol>
        )}
      </section>
    </>
  );
}

/** What a recipient's status alone does not say: whose turn it waits for, when and why they declined. */
function recipientNote(r: Form['recipients'][number]) {
  if (r.status === 'waiting') return <div className="muted small">Messaged when it is their turn</div>;
  if (r.status === 'declined') {
    return (
      <div className="decline-reason">
        {r.declined_at ? <>Declined {formatDateTime(r.declined_at)}</> : 'Declined'}
        {r.decline_reason ? <>: “{r.decline_reason}”</> : null}
      </div>
    );
  }
  return null;
}

function showValue(v: unknown, type: string): string {
  if (v === null || v === undefined || v === '') return '—';
  // A signature's value is the hash of its image: to a person, it is signed.
  if (type === 'signature' || type === 'initials') return 'Signed';
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (typeof v === 'object') return 'Signed';
  return String(v);
}

function CopyLink({ url, who }: { url: string; who: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <span className="copy-link">
      <a href={url} target="_blank" rel="noopener" className="small">Open</a>
      <button type="button" className="btn ghost small" aria-label={`Copy the signing link of ${who}`} onClick={() => void navigator.clipboard.writeText(url).then(() => setCopied(true), () => setCopied(false))}>{copied ? 'Copied' : 'Copy'}</button>
    </span>
  );
}

function SendMore({ form, signers, roles, onSent }: { form: Form; signers: number; roles: readonly SignerRole[]; onSent(f: Form): void }) {
  const { mode } = useApp();
  const [rows, setRows] = useState<RecipientDraft[]>([blankRecipient()]);
  const [options, setOptions] = useState(defaultSendOptions);
  // The order and the schedule are fixed by the first send.
  const first = form.recipients.length === 0;
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<ApiError | Error | null>(null);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setBusy(true);
    setErr(null);
    try {
      onSent(await api<Form>('POST', `/${mode}/forms/${form.id}/send`, { ...(first ? toSendOptions(options) : {}), recipients: toSendRecipients(rows) }));
      setRows([blankRecipient()]);
    } catch (x) {
      setErr(x instanceof Error ? x : new Error(errorMessage(x)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card send-more" onSubmit={(e) => void submit(e)} aria-labelledby="send-more-title" noValidate>
      <h3 id="send-more-title">{form.recipients.length === 0 ? 'Send it' : 'Send to more recipients'}</h3>
      <RecipientsEditor rows={rows} onChange={setRows} signerCount={signers} roles={roles} taken={form.recipients.map((r) => r.signer)} errorParam={err instanceof ApiError ? err.param : undefined} errorMessage={err?.message} />
      {first ? <SendOptions value={options} onChange={setOptions} idPrefix="send-more" /> : null}
      {err && !(err instanceof ApiError && err.param?.startsWith('recipients[')) ? <div className="note error" role="alert">{err.message}</div> : null}
      {err instanceof ApiError && err.param?.startsWith('recipients[') ? <div className="visually-hidden" role="alert">{err.message}</div> : null}
      <button type="submit" className="btn primary" disabled={busy}>{busy ? 'Sending…' : 'Send'}</button>
      {form.recipients.length === 0 ? <Notice>Each recipient gets a personal signing link by e-mail or SMS.</Notice> : null}
    </form>
  );
}
