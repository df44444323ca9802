import type { SendFormRequest } from '../api';

// The send options the API takes on a form's first send (issue 24): the signing order and a reminder
// schedule. Both are fixed by that send, so the form offers them only then. A value out of range is
// refused by the server with its sentence, shown under the form like any other send error.

export interface SendOptionsDraft {
  order: 'parallel' | 'sequential';
  remind: boolean;
  everyDays: string;
  max: string;
}

export const defaultSendOptions = (): SendOptionsDraft => ({ order: 'parallel', remind: false, everyDays: '3', max: '3' });

/** The `signing_order` and `reminders` of a SendFormRequest; the server checks the ranges. */
export function toSendOptions(o: SendOptionsDraft): Pick<SendFormRequest, 'signing_order' | 'reminders'> {
  return { signing_order: o.order, ...(o.remind ? { reminders: { every_days: Number(o.everyDays), max: Number(o.max) } } : {}) };
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
    </div>
  );
}
