import { useState } from 'react';
import type { FieldType } from '../api';
import { roleName, type SignerRole } from '../roles';
import { CHOICE_TYPES, FIELD_TYPES, signerColour, SIGNER_COLOURS, TEXT_TYPES, type EditField } from './fields';
import { AttachmentEditor, ConditionEditor, FormulaEditor } from './LogicEditor';

// The selected field's properties. Every change goes through `onChange` with a key naming the property,
// so typing a name is one undo step, not one per letter.

interface Props {
  field: EditField;
  signers: number;
  roles: readonly SignerRole[];
  error: string | null;
  onChange(patch: Partial<EditField>, coalesce: string): void;
  onDelete(): void;
  /** Another field on the page shows the same label. */
  duplicateLabel?: boolean;
  /** Every field of the template: what a condition or a formula can read. */
  fields?: readonly EditField[];
}

export function Inspector({ field, signers, roles, error, onChange, onDelete, duplicateLabel = false, fields = [] }: Props) {
  const id = (k: string) => `insp-${k}`;
  const [optionsText, setOptionsText] = useState<{ key: string; text: string } | null>(null);
  const options = optionsText?.key === field.key ? optionsText.text : (field.options ?? []).join('\n');
  const slots = Math.max(signers, field.signer) + 1;
  return (
    <div className="inspector" aria-label={`Properties of ${field.name}`} role="group">
      <h2 className="panel-title">Field properties</h2>
      {error ? <div className="note error" role="alert">{error}</div> : null}
      <div className="field">
        <label htmlFor={id('name')}>Name <span className="muted">(the key in prefill)</span></label>
        <input id={id('name')} type="text" value={field.name} maxLength={200} onChange={(e) => onChange({ name: e.target.value }, `${field.key}:name`)} spellCheck={false} />
      </div>
      <div className="field">
        <label htmlFor={id('label')}>Label <span className="muted">(shown to the signer)</span></label>
        <input id={id('label')} type="text" value={field.label ?? ''} maxLength={500} onChange={(e) => onChange({ label: e.target.value }, `${field.key}:label`)} aria-describedby={duplicateLabel ? id('label-dup') : undefined} />
        {duplicateLabel ? <p id={id('label-dup')} className="small field-flag">Another field on this page has the same label: add the words that tell them apart.</p> : null}
      </div>
      <div className="two">
        <div className="field">
          <label htmlFor={id('type')}>Type</label>
          <select id={id('type')} value={field.type} onChange={(e) => {
            const type = e.target.value as FieldType;
            onChange({ type, ...(CHOICE_TYPES.includes(type) && !field.options?.length ? { options: ['Option 1', 'Option 2'] } : {}) }, `${field.key}:type`);
          }}>
            {FIELD_TYPES.map((t) => <option key={t.type} value={t.type}>{t.label}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={id('signer')}>Signer</label>
          <div className="signer-select">
            <span className="swatch" style={{ backgroundColor: signerColour(field.signer) }} aria-hidden="true" />
            <select id={id('signer')} value={field.signer} onChange={(e) => onChange({ signer: Number(e.target.value) }, `${field.key}:signer`)}>
              {Array.from({ length: Math.min(slots, SIGNER_COLOURS.length * 2) }, (_, i) => i + 1).map((n) => <option key={n} value={n}>{roleName(roles, n)}</option>)}
            </select>
          </div>
        </div>
      </div>
      <label className="check"><input type="checkbox" checked={field.required} onChange={(e) => onChange({ required: e.target.checked }, `${field.key}:required:${e.target.checked}`)} /> Required</label>
      {CHOICE_TYPES.includes(field.type) ? (
        <div className="field">
          <label htmlFor={id('options')}>Options <span className="muted">(one per line)</span></label>
          <textarea id={id('options')} rows={4} value={options} onChange={(e) => {
            setOptionsText({ key: field.key, text: e.target.value });
            onChange({ options: e.target.value.split('\n').map((o) => o.trim()).filter(Boolean) }, `${field.key}:options`);
          }} />
        </div>
      ) : null}
      {TEXT_TYPES.includes(field.type) ? (
        <div className="two">
          {field.type === 'text' ? <label className="check"><input type="checkbox" checked={field.multiline ?? false} onChange={(e) => onChange({ multiline: e.target.checked }, `${field.key}:multiline:${e.target.checked}`)} /> Multiline</label> : <span />}
          <div className="field">
            <label htmlFor={id('max')}>Max length</label>
            <input id={id('max')} type="number" min={1} inputMode="numeric" value={field.max_length ?? ''} onChange={(e) => {
              const n = Number.parseInt(e.target.value, 10);
              onChange({ max_length: Number.isInteger(n) && n > 0 ? n : undefined }, `${field.key}:max`);
            }} />
          </div>
        </div>
      ) : null}
      {field.type === 'number' ? <FormulaEditor field={field} fields={fields} onChange={onChange} /> : null}
      {field.type === 'attachment' ? <AttachmentEditor field={field} onChange={onChange} /> : null}
      <ConditionEditor field={field} fields={fields} onChange={onChange} />
      <div className="geometry">
        <span>Page {field.page}</span><span>x {Math.round(field.x)}</span><span>y {Math.round(field.y)}</span><span>{Math.round(field.width)} × {Math.round(field.height)} pt</span>
      </div>
      <button type="button" className="btn danger block" onClick={onDelete}>Delete field</button>
    </div>
  );
}
