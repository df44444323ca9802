import { useState } from 'react';
import type { SendRecipient } from '../api';
import { roleName, type SignerRole } from '../roles';

// Who a form goes to: e-mail or SMS, the address, a name, and the signer slot each one takes
// (the template's signer roles: slot 1 signs the fields of signer 1, and so on). Each row is headed by
// the role it signs as ("Tenant"; "Signer 2" when the slot has no name), as the server will assign it.

export interface RecipientDraft {
  key: number;
  channel: 'email' | 'sms';
  address: string;
  name: string;
  signer: string;
}

let next = 1;
export const blankRecipient = (): RecipientDraft => ({ key: next++, channel: 'email', address: '', name: '', signer: '' });

export function toSendRecipients(rows: RecipientDraft[]): SendRecipient[] {
  return rows.map((r) => {
    const out: SendRecipient = r.channel === 'email' ? { channel: 'email', email: r.address.trim() } : { channel: 'sms', phone: r.address.trim() };
    if (r.name.trim()) out.name = r.name.trim();
    if (r.signer) out.signer = Number(r.signer);
    return out;
  });
}

/**
 * The slot each row will sign in, as the server assigns them (assignSigners in recipient-rules.ts): a
 * chosen slot as chosen; the others, in order, the lowest slot neither taken by a recipient already
 * sent nor chosen by another row.
 */
export function slotsOf(rows: readonly RecipientDraft[], taken: readonly number[] = []): number[] {
  const used = new Set([...taken, ...rows.filter((r) => r.signer).map((r) => Number(r.signer))]);
  let next = 1;
  return rows.map((r) => {
    if (r.signer) return Number(r.signer);
    while (used.has(next)) next++;
    used.add(next);
    return next;
  });
}

interface Props {
  rows: RecipientDraft[];
  onChange(rows: RecipientDraft[]): void;
  signerCount: number;
  /** The template's named slots. */
  roles?: readonly SignerRole[] | undefined;
  /** The slots of the recipients the form was already sent to. */
  taken?: readonly number[] | undefined;
  errorParam?: string | undefined;
  errorMessage?: string | undefined;
}

export function RecipientsEditor({ rows, onChange, signerCount, roles, taken, errorParam, errorMessage }: Props) {
  const [announce, setAnnounce] = useState('');
  const slots = slotsOf(rows, taken);
  const choices = Math.max(1, signerCount, ...(roles ?? []).map((r) => r.slot));
  const patch = (key: number, p: Partial<RecipientDraft>) => onChange(rows.map((r) => (r.key === key ? { ...r, ...p } : r)));
  return (
    <fieldset className="recipients">
      <legend>Recipients</legend>
      {rows.map((r, i) => {
        const bad = errorParam?.startsWith(`recipients[${i}]`) ? errorMessage : undefined;
        const id = (k: string) => `rcp-${r.key}-${k}`;
        return (
          <div className="recipient-row" key={r.key} role="group" aria-label={`Recipient ${i + 1}: ${roleName(roles, slots[i]!)}`}>
            <p className="recipient-role" id={id('role')}>{roleName(roles, slots[i]!)}</p>
            <div className="field">
              <label htmlFor={id('channel')}>Send by</label>
              <select id={id('channel')} value={r.channel} onChange={(e) => patch(r.key, { channel: e.target.value as 'email' | 'sms' })}>
                <option value="email">E-mail</option>
                <option value="sms">SMS</option>
              </select>
            </div>
            <div className="field grow">
              <label htmlFor={id('address')}>{r.channel === 'email' ? 'E-mail address' : 'Phone number'}</label>
              <input id={id('address')} type={r.channel === 'email' ? 'email' : 'tel'} value={r.address} required autoComplete="off" placeholder={r.channel === 'email' ? 'name@example.com' : '+44 20 7946 0000'} onChange={(e) => patch(r.key, { address: e.target.value })} aria-invalid={bad ? true : undefined} aria-describedby={bad ? id('error') : undefined} />
            </div>
            <div className="field grow">
              <label htmlFor={id('name')}>Name <span className="muted">(optional)</span></label>
              <input id={id('name')} type="text" value={r.name} maxLength={200} onChange={(e) => patch(r.key, { name: e.target.value })} />
            </div>
            <div className="field">
              <label htmlFor={id('signer')}>Signs as</label>
              <select id={id('signer')} value={r.signer} onChange={(e) => patch(r.key, { signer: e.target.value })}>
                <option value="">Next in order</option>
                {Array.from({ length: choices }, (_, n) => <option key={n} value={String(n + 1)}>{roleName(roles, n + 1)}</option>)}
              </select>
            </div>
            {rows.length > 1 ? <button type="button" className="btn ghost small" onClick={() => { onChange(rows.filter((x) => x.key !== r.key)); setAnnounce(`Recipient ${i + 1} removed.`); }} aria-label={`Remove recipient ${i + 1}`}>Remove</button> : null}
            {bad ? <p className="field-error" id={id('error')}>{bad}</p> : null}
          </div>
        );
      })}
      <button type="button" className="btn secondary small" onClick={() => { onChange([...rows, blankRecipient()]); setAnnounce('Recipient added.'); }}>Add a recipient</button>
      <span className="visually-hidden" role="status">{announce}</span>
    </fieldset>
  );
}
