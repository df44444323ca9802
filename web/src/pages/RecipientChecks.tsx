import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, ApiError, errorMessage, getIfChanged, type Form, type Recipient } from '../api';
import { useApp } from '../mode';
import { usePoll } from '../poll';
import { formatDateTime } from '../ui/ui';

// Issue 38 on a form's page: who verified when (each recipient's check from the stored evidence:
// method, masked destination, codes sent and verified, wrong codes, lockouts, earlier recipients), and
// "Change recipient" on a row that has not signed — a dialog calling the API's PATCH (a new link and
// invitation; the old link stops working at once).

export interface RecipientVerification {
  recipient_id: string;
  method: 'email_code' | 'sms_code' | 'access_code' | null;
  when: 'open' | 'sign' | null;
  destination: string | null;
  codes_sent: string[];
  verified: Array<{ at: string; purpose: 'open' | 'sign' }>;
  failed_attempts: number;
  lockouts: string[];
  locked_until: string | null;
  replaced: Array<{ name: string | null; address: string | null; replaced_by: 'sender' | 'signer'; reason: string | null; at: string }>;
}

const METHOD = { email_code: 'E-mail code', sms_code: 'SMS code', access_code: 'Access code' } as const;

export function VerificationSection({ form }: { form: Form }) {
  const { mode } = useApp();
  const [rows, setRows] = useState<RecipientVerification[] | null>(null);
  const tag = useRef<string | null>(null);
  const path = `/${mode}/forms/${encodeURIComponent(form.id)}/verification`;
  const refresh = async () => {
    try {
      const list = await getIfChanged<{ data: RecipientVerification[] }>(path, tag);
      if (list) setRows(list.data);
    } catch {
      // The recipients table above shows the form; this section waits for the next poll.
    }
  };
  usePoll(refresh, 5000, [path]);
  if (!rows || !rows.some((r) => r.method !== null || r.replaced.length > 0)) return null;
  const byId = new Map(form.recipients.map((r) => [r.id, r]));
  return (
    <section className="section" aria-labelledby="verification-title">
      <h3 id="verification-title">Who verified when</h3>
      <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="verification-title">
        <table className="table verification">
          <thead><tr><th scope="col">Recipient</th><th scope="col">Check</th><th scope="col">Verified</th><th scope="col" className="hide-sm">Codes sent</th><th scope="col" className="hide-sm">Wrong codes</th></tr></thead>
          <tbody>
            {rows.map((v) => {
              const r = byId.get(v.recipient_id);
              return (
                <tr key={v.recipient_id}>
                  <td>{r ? r.name || r.email || r.phone : v.recipient_id}{v.replaced.map((e) => (
                    <div key={e.at} className="muted small">Replaced {e.name ? `${e.name} (${e.address ?? ''})` : e.address} {e.replaced_by === 'signer' ? 'who passed it on' : 'by the sender'}, {formatDateTime(e.at)}{e.reason ? `: “${e.reason}”` : ''}</div>
                  ))}</td>
                  <td>{v.method ? <>{METHOD[v.method]}{v.destination ? <div className="muted small"><bdi>{v.destination}</bdi></div> : null}<div className="muted small">{v.when === 'sign' ? 'At opening and at signing' : 'At opening'}</div></> : <span className="muted">None</span>}</td>
                  <td>{v.verified.length === 0 ? <span className="muted">Not yet</span> : v.verified.map((e) => <div key={e.at + e.purpose}>{formatDateTime(e.at)} <span className="muted small">{e.purpose === 'sign' ? '(at signing)' : '(at opening)'}</span></div>)}</td>
                  <td className="hide-sm">{v.codes_sent.length === 0 ? '—' : <>{v.codes_sent.length}<div className="muted small">last {formatDateTime(v.codes_sent[v.codes_sent.length - 1] ?? null)}</div></>}</td>
                  <td className="hide-sm">{v.failed_attempts}{v.lockouts.length > 0 ? <div className="field-error">Locked {v.lockouts.length}×{v.locked_until ? `, until ${formatDateTime(v.locked_until)}` : ''}</div> : null}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** A row that can still be changed: the form is out for signing and this recipient has not signed or declined. */
export function canChange(form: Form, r: Recipient): boolean {
  return (form.status === 'sent' || form.status === 'viewed') && r.status !== 'signed' && r.status !== 'declined';
}

export function ChangeRecipientButton({ form, recipient, onChanged }: { form: Form; recipient: Recipient; onChanged(f: Form): void }) {
  const [open, setOpen] = useState(false);
  const who = recipient.name || recipient.email || recipient.phone || 'recipient';
  return (
    <>
      <button type="button" className="btn ghost small change-recipient" aria-label={`Change recipient ${who}`} onClick={() => setOpen(true)}>Change</button>
      {open ? <ChangeRecipientDialog form={form} recipient={recipient} onClose={() => setOpen(false)} onChanged={(f) => { setOpen(false); onChanged(f); }} /> : null}
    </>
  );
}

function ChangeRecipientDialog({ form, recipient, onClose, onChanged }: { form: Form; recipient: Recipient; onClose(): void; onChanged(f: Form): void }) {
  const { mode } = useApp();
  const ref = useRef<HTMLDialogElement>(null);
  const [name, setName] = useState(recipient.name ?? '');
  const [address, setAddress] = useState(recipient.channel === 'sms' ? recipient.phone ?? '' : recipient.email ?? '');
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  const sms = recipient.channel === 'sms';
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const body: Record<string, string> = {};
    const was = sms ? recipient.phone ?? '' : recipient.email ?? '';
    if (address.trim() !== was) body[sms ? 'phone' : 'email'] = address.trim();
    if (name.trim() !== (recipient.name ?? '') && name.trim() !== '') body['name'] = name.trim();
    if (Object.keys(body).length === 0) {
      setErr('Change the name or the address first.');
      return;
    }
    setBusy(true);
    setErr(null);
    try {
      onChanged(await api<Form>('PATCH', `/${mode}/forms/${encodeURIComponent(form.id)}/recipients/${encodeURIComponent(recipient.id)}`, body));
    } catch (x) {
      setErr(x instanceof ApiError ? x.message : errorMessage(x));
    } finally {
      setBusy(false);
    }
  };
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="change-recipient-title" onCancel={(e) => { e.preventDefault(); onClose(); }}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <h2 id="change-recipient-title">Change recipient</h2>
        <p>The current signing link stops working at once, and a new invitation goes to the address below. The audit trail keeps both.</p>
        <div className="field">
          <label htmlFor="change-recipient-name">Name</label>
          <input id="change-recipient-name" type="text" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="change-recipient-address">{sms ? 'Phone number' : 'E-mail address'}</label>
          <input id="change-recipient-address" type={sms ? 'tel' : 'email'} dir="ltr" required maxLength={sms ? 32 : 254} value={address} onChange={(e) => setAddress(e.target.value)} aria-describedby={err ? 'change-recipient-error' : undefined} aria-invalid={err ? true : undefined} />
        </div>
        {err ? <div className="note error" role="alert" id="change-recipient-error">{err}</div> : null}
        <div className="dialog-buttons">
          <button type="button" className="btn secondary" onClick={onClose} disabled={busy}>Cancel</button>
          <button type="submit" className="btn primary" disabled={busy}>{busy ? 'Changing…' : 'Change and send a new link'}</button>
        </div>
      </form>
    </dialog>
  );
}
