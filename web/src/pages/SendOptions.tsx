import type { SendFormRequest } from '../api';

// The send options the API takes on a form's first send (issue 24): the signing order and a reminder
// schedule. Both are fixed by that send, so the form offers them only then. A value out of range is
// refused by the server with its sentence, shown under the form like any other send error.

export interface SendOptionsDraft {
  order: 'parallel' | 'sequential';
  remind: boolean;
  everyDays: string;
  max: string;
  /** Issue 42: the sender's message, the invitation's subject, the links' lifetime ('' = the defaults). */
  message: string;
  subject: string;
  expiresInDays: string;
}

export const defaultSendOptions = (): SendOptionsDraft => ({ order: 'parallel', remind: false, everyDays: '3', max: '3', message: '', subject: '', expiresInDays: '' });

/** The options of a SendFormRequest; the server checks the ranges and lengths. */
export function toSendOptions(o: SendOptionsDraft): Pick<SendFormRequest, 'signing_order' | 'reminders' | 'message' | 'subject' | 'expires_in_days'> {
  return {
    signing_order: o.order,
    ...(o.remind ? { reminders: { every_days: Number(o.everyDays), max: Number(o.max) } } : {}),
    ...(o.message.trim() ? { message: o.message.trim() } : {}),
    ...(o.subject.trim() ? { subject: o.subject.trim() } : {}),
    ...(o.expiresInDays.trim() ? { expires_in_days: Number(o.expiresInDays) } : {}),
  };
}

export function SendOptions({ value, onChange, idPrefix }: { value: SendOptionsDraft; onChange(v: SendOptionsDraft): void; idPrefix: string }) {
  const set = (p: Partial<SendOptionsDraft>) => onChange({ ...value, ...p });
  const id = (k: string) => `${idPrefix}-${k}`;
  return (
    <div className="send-options">
      <fieldset className="field radio-group">
        <legend>Signing order</legend>
        <label><input type="radio" name={id('order')} value="parallel" checked={value.order === 'parallel'} onChange={() => set({ order: 'parallel' })} /> All at once</label>
        <label><input type="radio" name={id('order')} value="sequential" checked={value.order === 'sequential'} onChange={() => set({ order: 'sequential' })} /> One after another</label>
      </fieldset>
      <p className="hint">{value.order === 'sequential' ? 'Each recipient is messaged when the one before has signed, in signer order.' : 'Every recipient is messaged now.'}</p>
      <label className="check"><input type="checkbox" checked={value.remind} onChange={(e) => set({ remind: e.target.checked })} /> Remind those who have not signed</label>
      {value.remind ? (
        <div className="reminder-row">
          <div className="field">
            <label htmlFor={id('every')}>Every (days)</label>
            <input id={id('every')} type="number" min={1} max={30} step={1} value={value.everyDays} onChange={(e) => set({ everyDays: e.target.value })} />
          </div>
          <div className="field">
            <label htmlFor={id('max')}>At most (reminders)</label>
            <input id={id('max')} type="number" min={1} max={10} step={1} value={value.max} onChange={(e) => set({ max: e.target.value })} />
          </div>
        </div>
      ) : null}
      <div className="field">
        <label htmlFor={id('message')}>Message to the recipients <span className="muted">(optional)</span></label>
        <textarea id={id('message')} rows={3} maxLength={1000} value={value.message} onChange={(e) => set({ message: e.target.value })} aria-describedby={id('message-hint')} />
        <p className="hint" id={id('message-hint')}>Shown in the invitation and on their page, as you write it. {value.message.length}/1,000.</p>
      </div>
      <div className="reminder-row">
        <div className="field grow">
          <label htmlFor={id('subject')}>E-mail subject <span className="muted">(optional)</span></label>
          <input id={id('subject')} type="text" maxLength={200} value={value.subject} onChange={(e) => set({ subject: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor={id('expires')}>Links work for (days)</label>
          <input id={id('expires')} type="number" min={1} max={365} step={1} placeholder="30" value={value.expiresInDays} onChange={(e) => set({ expiresInDays: e.target.value })} />
        </div>
      </div>
    </div>
  );
}
