import { useState } from 'react';
import type { RecipientRole, SendRecipient } from '../api';
import { roleName, type SignerRole } from '../roles';

// Who a form goes to: e-mail or SMS, the address, a name, and the signer slot each one takes
// (the template's signer roles: slot 1 signs the fields of signer 1, and so on). Each row is headed by
// the role it signs as ("Tenant"; "Signer 2" when the slot has no name), as the server will assign it.

export type CheckChoice = '' | 'email_code' | 'sms_code' | 'access_code';

export interface RecipientDraft {
  key: number;
  channel: 'email' | 'sms';
  address: string;
  name: string;
  signer: string;
  /** Issue 42: what they do, their language ('' = theirs unknown: browser, then account). */
  role: RecipientRole;
  locale: string;
  /** Issue 38 in the dashboard: the check before the document opens, and what their signature means. */
  check: CheckChoice;
  accessCode: string;
  meaning: string;
}

let next = 1;
export const blankRecipient = (): RecipientDraft => ({ key: next++, channel: 'email', address: '', name: '', signer: '', role: 'signer', locale: '', check: '', accessCode: '', meaning: '' });

export function toSendRecipients(rows: RecipientDraft[]): SendRecipient[] {
  return rows.map((r) => {
    const out: SendRecipient = r.channel === 'email' ? { channel: 'email', email: r.address.trim() } : { channel: 'sms', phone: r.address.trim() };
    if (r.name.trim()) out.name = r.name.trim();
    if (r.signer) out.signer = Number(r.signer);
    if (r.role !== 'signer') out.role = r.role;
    if (r.locale) out.locale = r.locale;
    if (r.check) out.auth = r.check === 'access_code' ? { method: 'access_code', access_code: r.accessCode, when: 'open' } : { method: r.check, when: 'open' };
    if (r.meaning.trim()) out.meaning = r.meaning.trim();
    return out;
  });
}

const ROLE_LABELS: Record<RecipientRole, string> = { signer: 'Signs', approver: 'Approves', cc: 'Gets a copy (cc)', viewer: 'Must read' };
const CHECK_LABELS: Record<CheckChoice, string> = { '': 'None', email_code: 'Code by e-mail', sms_code: 'Code by SMS', access_code: 'Access code' };

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
  /** The languages a recipient's page and messages can be in (tag and own name); without them, no choice. */
  languages?: ReadonlyArray<{ tag: string; name: string }> | undefined;
  errorParam?: string | undefined;
  errorMessage?: string | undefined;
}

export function RecipientsEditor({ rows, onChange, signerCount, roles, taken, languages, errorParam, errorMessage }: Props) {
  const [announce, setAnnounce] = useState('');
  const slots = slotsOf(rows, taken);
  // A slot past the template's signers is offered too: an approver or a cc takes one without fields.
  const choices = Math.max(1, signerCount, ...(roles ?? []).map((r) => r.slot), rows.length + (taken?.length ?? 0));
  const patch = (key: number, p: Partial<RecipientDraft>) => onChange(rows.map((r) => (r.key === key ? { ...r, ...p } : r)));
  return (
    <fieldset className="recipients">
      <legend>Recipients</legend>
      {rows.map((r, i) => {
        const bad = errorParam?.startsWith(`recipients[${i}]`) ? errorMessage : undefined;
        const id = (k: string) => `rcp-${r.key}-${k}`;
        return (
          <div className="recipient-row" key={r.key} role="group" aria-label={`Recipient ${i + 1}: ${roleName(roles, slots[i]!)}`}>
            <p className="recipient-role" id={id('role')}>{r.role === 'signer' ? roleName(roles, slots[i]!) : ROLE_LABELS[r.role]}</p>
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
            <div className="field">
              <label htmlFor={id('kind')}>Role</label>
              <select id={id('kind')} value={r.role} onChange={(e) => patch(r.key, { role: e.target.value as RecipientRole })} aria-describedby={id('kind-hint')}>
                {(Object.keys(ROLE_LABELS) as RecipientRole[]).map((k) => <option key={k} value={k}>{ROLE_LABELS[k]}</option>)}
              </select>
              {r.role !== 'signer' ? <p className="hint" id={id('kind-hint')}>{r.role === 'approver' ? 'Approves or declines with a reason; fills no fields. Give them a slot without fields.' : r.role === 'cc' ? 'Told now and sent the completed copy; never waits for a turn.' : 'Must open the document; the opening is recorded.'}</p> : null}
            </div>
            {languages ? (
              <div className="field">
                <label htmlFor={id('locale')}>Language</label>
                <select id={id('locale')} value={r.locale} onChange={(e) => patch(r.key, { locale: e.target.value })}>
                  <option value="">Their browser's</option>
                  {languages.map((l) => <option key={l.tag} value={l.tag} lang={l.tag}>{l.name}</option>)}
                </select>
              </div>
            ) : null}
            <div className="field">
              <label htmlFor={id('check')}>Check before opening</label>
              <select id={id('check')} value={r.check} onChange={(e) => patch(r.key, { check: e.target.value as CheckChoice })}>
                {(Object.keys(CHECK_LABELS) as CheckChoice[]).map((k) => <option key={k} value={k}>{CHECK_LABELS[k]}</option>)}
              </select>
            </div>
            {r.check === 'access_code' ? (
              <div className="field">
                <label htmlFor={id('code')}>Access code</label>
                <input id={id('code')} type="text" minLength={6} maxLength={32} autoComplete="off" value={r.accessCode} onChange={(e) => patch(r.key, { accessCode: e.target.value })} aria-describedby={id('code-hint')} />
                <p className="hint" id={id('code-hint')}>6–32 characters; give it to them yourself.</p>
              </div>
            ) : null}
            {r.role === 'signer' || r.role === 'approver' ? (
              <div className="field grow">
                <label htmlFor={id('meaning')}>Meaning <span className="muted">(optional)</span></label>
                <input id={id('meaning')} type="text" maxLength={80} value={r.meaning} placeholder="Approved, Reviewed, Author…" onChange={(e) => patch(r.key, { meaning: e.target.value })} />
              </div>
            ) : null}
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
