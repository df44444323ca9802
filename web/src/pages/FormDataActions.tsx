import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, errorMessage, type Form } from '../api';
import { mayCall } from '../../../src/lib/dashboard-permissions';
import { useApp } from '../mode';
import { formatDateTime } from '../ui/ui';
import { OUT_FOR_SIGNING } from './FormActions';

// A form's data lifecycle on its page (issue 40): the legal hold (place with a reason, release),
// Delete with a confirmation that names what will be lost, and the tombstone of a deleted form. The
// API's rules decide; a refusal's sentence is shown as it is.

/** What DELETE would do to this form, in the words of the confirmation; null when it is refused now. */
function deletion(form: Form): { lost: string[]; kept: string } | null {
  if (form.status === 'deleted' || form.legal_hold) return null;
  const sealFailed = OUT_FOR_SIGNING.has(form.status) && form.sealing?.status === 'failed';
  if (OUT_FOR_SIGNING.has(form.status) && !sealFailed) return null;
  if (form.status === 'draft') return { lost: ['the draft and every value filled in'], kept: 'Nothing is kept: the draft is gone.' };
  const n = form.recipients.length;
  return {
    lost: [
      'every field value, the metadata and the form’s name',
      `${n} recipient${n === 1 ? '’s' : 's’'} names, e-mail addresses, phone numbers, IP addresses and user agents`,
      'the messages sent, the consent records and the signature images',
      form.status === 'signed' ? 'the signed PDF and its audit trail (download the evidence first if you need them)' : 'the filled PDF',
      'the personal data in its events (they keep their ids and types)',
    ],
    kept: 'Kept: a tombstone with the template, the counts and the signed PDF’s SHA-256, so a copy someone holds can still be verified.',
  };
}

export function FormDataActions({ form, onChanged }: { form: Form; onChanged(f: Form): void }) {
  const { mode, session } = useApp();
  const [asking, setAsking] = useState<'hold' | 'delete' | null>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const base = `/${mode}/forms/${encodeURIComponent(form.id)}`;
  const del = deletion(form);

  const run = async (method: 'POST' | 'DELETE', path: string, body: unknown, done: string) => {
    setBusy(true);
    setNote(null);
    try {
      onChanged(await api<Form>(method, path, body));
      setNote({ tone: 'success', text: done });
    } catch (x) {
      setNote({ tone: 'error', text: errorMessage(x) });
    } finally {
      setBusy(false);
      setAsking(null);
    }
  };

  if (form.status === 'deleted') {
    const t = form.tombstone;
    return (
      <section className="section" aria-labelledby="data-title">
        <h2 id="data-title">Deleted</h2>
        <p>Deleted {form.deleted_at ? formatDateTime(form.deleted_at) : ''}. Only the tombstone is kept{t ? `: ${t.recipients} recipient(s), ${t.signatures} signature(s), ${t.events} event(s); files ${t.files}` : ''}.</p>
        {t?.sealed_sha256 ? <p className="small">Signed PDF SHA-256: <code className="id">{t.sealed_sha256}</code></p> : null}
        {note ? <div className={`note ${note.tone}`} role="status">{note.text}</div> : null}
      </section>
    );
  }
  return (
    <section className="section" aria-labelledby="data-title">
      <h2 id="data-title">Keeping and deleting</h2>
      {form.legal_hold ? (
        <p>On legal hold since {formatDateTime(form.legal_hold.placed_at)}{form.legal_hold.placed_by ? ` by ${form.legal_hold.placed_by}` : ''}: “{form.legal_hold.reason}”. It cannot be deleted, by you or by retention, until the hold is released.</p>
      ) : <p className="muted">A legal hold keeps this form from deletion and from the account’s retention.</p>}
      {mayCall(session.user.role, 'DELETE /:mode/forms/:form_id') ? <div className="form-actions-buttons">
        {form.legal_hold
          ? <button type="button" className="btn secondary" disabled={busy} onClick={() => void run('DELETE', `${base}/hold`, undefined, 'The hold is released.')}>Release hold</button>
          : <button type="button" className="btn secondary" disabled={busy} onClick={() => setAsking('hold')}>Place legal hold…</button>}
        <button type="button" className="btn danger-text secondary" disabled={busy || del === null} onClick={() => setAsking('delete')}
          title={del === null ? (form.legal_hold ? 'Release the hold first' : 'Void it first: it is out for signing') : undefined}>Delete…</button>
      </div> : null}
      {del === null && !form.legal_hold ? <p className="hint">Out for signing: void it before deleting it.</p> : null}
      {note ? <div className={`note ${note.tone}`} role={note.tone === 'error' ? 'alert' : 'status'}>{note.text}</div> : null}
      {asking === 'hold' ? <HoldDialog busy={busy} onCancel={() => setAsking(null)} onConfirm={(reason) => void run('POST', `${base}/hold`, { reason }, 'The form is on legal hold.')} /> : null}
      {asking === 'delete' && del ? <DeleteDialog busy={busy} name={form.name ?? form.id} what={del} onCancel={() => setAsking(null)} onConfirm={() => void run('DELETE', base, undefined, 'The form is deleted.')} /> : null}
    </section>
  );
}

function useModal() {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  return ref;
}

function HoldDialog({ busy, onCancel, onConfirm }: { busy: boolean; onCancel(): void; onConfirm(reason: string): void }) {
  const ref = useModal();
  const [reason, setReason] = useState('');
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (reason.trim()) onConfirm(reason.trim());
  };
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="hold-title" onCancel={(e) => { e.preventDefault(); onCancel(); }}>
      <form onSubmit={submit}>
        <h2 id="hold-title">Place a legal hold</h2>
        <p>While held, the form is never deleted — not from this page, the API or the account’s retention.</p>
        <div className="field">
          <label htmlFor="hold-reason">Reason <span className="muted">(required: a dispute, a litigation hold, an audit)</span></label>
          <textarea id="hold-reason" rows={3} maxLength={500} required value={reason} onChange={(e) => setReason(e.target.value)} />
        </div>
        <div className="dialog-buttons">
          <button type="button" className="btn secondary" onClick={onCancel} disabled={busy}>Cancel</button>
          <button type="submit" className="btn primary" disabled={busy || !reason.trim()}>{busy ? 'Placing…' : 'Place hold'}</button>
        </div>
      </form>
    </dialog>
  );
}

function DeleteDialog({ busy, name, what, onCancel, onConfirm }: { busy: boolean; name: string; what: { lost: string[]; kept: string }; onCancel(): void; onConfirm(): void }) {
  const ref = useModal();
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="delete-title" onCancel={(e) => { e.preventDefault(); onCancel(); }}>
      <form onSubmit={(e) => { e.preventDefault(); onConfirm(); }}>
        <h2 id="delete-title">Delete “{name}” for good?</h2>
        <p>This deletes, everywhere and beyond recovery:</p>
        <ul>{what.lost.map((l) => <li key={l}>{l}</li>)}</ul>
        <p>{what.kept}</p>
        <div className="dialog-buttons">
          <button type="button" className="btn secondary" onClick={onCancel} disabled={busy}>Keep it</button>
          <button type="submit" className="btn danger" disabled={busy}>{busy ? 'Deleting…' : 'Delete the form'}</button>
        </div>
      </form>
    </dialog>
  );
}
