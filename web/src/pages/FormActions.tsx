import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, ApiError, errorMessage, type Form } from '../api';
import { mayCall } from '../../../src/lib/dashboard-permissions';
import { useApp } from '../mode';

// Remind and Void on a sent or viewed form's page (issue 24): the API's own remind and void. A
// reminder within the hour answers 429 reminder_too_soon; its sentence is shown as it is. Void asks
// first, in a modal dialog with an optional reason (sent to the recipients with the notice).

export const OUT_FOR_SIGNING = new Set(['sent', 'viewed']);

export function FormActions({ form, onChanged }: { form: Form; onChanged(f: Form): void }) {
  const { mode, session } = useApp();
  const [busy, setBusy] = useState<'remind' | 'void' | null>(null);
  const [note, setNote] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [asking, setAsking] = useState(false);
  const base = `/${mode}/forms/${encodeURIComponent(form.id)}`;
  const canRemind = form.recipients.some((r) => r.status === 'sent' || r.status === 'viewed');

  const remind = async () => {
    setBusy('remind');
    setNote(null);
    try {
      const f = await api<Form>('POST', `${base}/remind`, {});
      onChanged(f);
      const n = f.recipients.filter((r) => r.status === 'sent' || r.status === 'viewed').length;
      setNote({ tone: 'success', text: `Reminder sent to ${n} recipient${n === 1 ? '' : 's'}.` });
    } catch (x) {
      setNote({ tone: 'error', text: x instanceof ApiError && x.code === 'reminder_too_soon' ? `Not sent: ${x.message}` : errorMessage(x) });
    } finally {
      setBusy(null);
    }
  };

  const voidIt = async (reason: string) => {
    setBusy('void');
    setNote(null);
    try {
      onChanged(await api<Form>('POST', `${base}/void`, reason.trim() ? { reason: reason.trim() } : {}));
      setAsking(false);
      setNote({ tone: 'success', text: 'The form is voided: its signing links no longer work, and the recipients were told.' });
    } catch (x) {
      setAsking(false);
      setNote({ tone: 'error', text: errorMessage(x) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="form-actions">
      {OUT_FOR_SIGNING.has(form.status) && mayCall(session.user.role, 'POST /:mode/forms/:form_id/void') ? (
        <div className="form-actions-buttons">
          <button type="button" className="btn secondary" disabled={busy !== null || !canRemind} onClick={() => void remind()}>{busy === 'remind' ? 'Reminding…' : 'Remind'}</button>
          <button type="button" className="btn danger-text secondary" disabled={busy !== null} onClick={() => setAsking(true)}>Void…</button>
        </div>
      ) : null}
      {note ? <div className={`note ${note.tone}`} role={note.tone === 'error' ? 'alert' : 'status'}>{note.text}</div> : null}
      {asking ? <VoidDialog busy={busy === 'void'} formName={form.name ?? 'this form'} onCancel={() => setAsking(false)} onConfirm={(r) => void voidIt(r)} /> : null}
    </div>
  );
}

function VoidDialog({ busy, formName, onCancel, onConfirm }: { busy: boolean; formName: string; onCancel(): void; onConfirm(reason: string): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    onConfirm(reason);
  };
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="void-title" onCancel={(e) => { e.preventDefault(); onCancel(); }}>
      <form onSubmit={submit}>
        <h2 id="void-title">Void “{formName}”?</h2>
        <p>The signing links stop working and each recipient who was messaged is told. This cannot be undone.</p>
        <div className="field">
          <label htmlFor="void-reason">Reason <span className="muted">(optional, shown to the recipients)</span></label>
          <textarea id="void-reason" rows={3} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
        </div>
        <div className="dialog-buttons">
          <button type="button" className="btn secondary" onClick={onCancel} disabled={busy}>Keep it</button>
          <button type="submit" className="btn danger" disabled={busy}>{busy ? 'Voiding…' : 'Void the form'}</button>
        </div>
      </form>
    </dialog>
  );
}
