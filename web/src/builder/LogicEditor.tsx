import { useState } from 'react';
import { applyFieldLogic, parseFormula } from '../../../src/domain/forms/field-logic.js';
import type { Field } from '../api';
import type { EditField } from './fields';

// The builder's editors for what issue 41 added to a field: "Show when …" (a condition on another
// field's value), a number field's formula with a live preview computed by the signing page's and the
// server's own evaluator (field-logic.js), and an attachment field's file types and count.

type Condition = NonNullable<Field['condition']>;
type Test = 'equals' | 'one_of' | 'not_empty';
type Patch = (patch: Partial<EditField>, coalesce: string) => void;

const shown = (f: Pick<Field, 'name' | 'label'>) => f.label?.trim() || f.name;

/** The single test a condition is, or undefined for a combined one (`all` / `any`). */
function single(c: Condition | undefined): { field: string; test: Test; value: unknown } | undefined {
  if (!c || 'all' in c || 'any' in c) return undefined;
  if ('equals' in c) return { field: c.field, test: 'equals', value: c.equals };
  if ('one_of' in c) return { field: c.field, test: 'one_of', value: c.one_of };
  return { field: c.field, test: 'not_empty', value: true };
}

export function ConditionEditor({ field, fields, onChange }: { field: EditField; fields: readonly EditField[]; onChange: Patch }) {
  const id = (k: string) => `cond-${k}`;
  const c = field.condition ?? undefined;
  const s = single(c);
  const others = fields.filter((f) => f.key !== field.key && f.type !== 'signature' && f.type !== 'initials' && f.type !== 'date_signed');
  const source = s ? fields.find((f) => f.name === s.field) : undefined;
  const key = `${field.key}:condition`;
  const set = (next: Condition | undefined) => onChange({ condition: next }, key);
  const build = (name: string, test: Test, value: unknown): Condition => {
    if (test === 'not_empty') return { field: name, not_empty: true };
    if (test === 'one_of') return { field: name, one_of: Array.isArray(value) ? value.map(String) : [] };
    return { field: name, equals: (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number' ? value : '') };
  };
  const defaultValue = (f: EditField | undefined): unknown => (f?.type === 'checkbox' ? true : f?.options?.[0] ?? '');
  if (c && !s) {
    const parts = 'all' in c ? c.all : 'any' in c ? c.any : [];
    return (
      <fieldset className="logic">
        <legend>Show when</legend>
        <p className="small">A combined condition ({'all' in c ? 'all of' : 'any of'} {parts.length} tests), set through the API.</p>
        <button type="button" className="btn ghost small" onClick={() => set(undefined)}>Always show this field</button>
      </fieldset>
    );
  }
  return (
    <fieldset className="logic">
      <legend>Show when</legend>
      <div className="field">
        <label htmlFor={id('field')}>Field</label>
        <select id={id('field')} value={s?.field ?? ''} onChange={(e) => {
          const name = e.target.value;
          if (!name) return set(undefined);
          const f = fields.find((x) => x.name === name);
          set(build(name, f?.type === 'checkbox' ? 'equals' : s?.test ?? 'equals', defaultValue(f)));
        }}>
          <option value="">Always (no condition)</option>
          {others.map((f) => <option key={f.key} value={f.name}>{shown(f)}</option>)}
        </select>
      </div>
      {s ? (
        <div className="two">
          <div className="field">
            <label htmlFor={id('test')}>Test</label>
            <select id={id('test')} value={s.test} onChange={(e) => set(build(s.field, e.target.value as Test, e.target.value === 'one_of' ? (s.value === '' ? [] : [String(s.value)]) : defaultValue(source)))}>
              <option value="equals">is</option>
              {source?.type === 'checkbox' ? null : <option value="one_of">is one of</option>}
              <option value="not_empty">is filled in</option>
            </select>
          </div>
          {s.test === 'not_empty' ? <span /> : (
            <div className="field">
              <label htmlFor={id('value')}>{s.test === 'one_of' ? 'Values (comma-separated)' : 'Value'}</label>
              {source?.type === 'checkbox' ? (
                <select id={id('value')} value={String(s.value === true)} onChange={(e) => set(build(s.field, 'equals', e.target.value === 'true'))}>
                  <option value="true">ticked</option>
                  <option value="false">not ticked</option>
                </select>
              ) : s.test === 'equals' && source?.options?.length ? (
                <select id={id('value')} value={String(s.value)} onChange={(e) => set(build(s.field, 'equals', e.target.value))}>
                  {source.options.map((o) => <option key={o} value={o}>{o}</option>)}
                </select>
              ) : (
                <input id={id('value')} type="text" value={Array.isArray(s.value) ? s.value.join(', ') : String(s.value)} onChange={(e) => set(build(s.field, s.test, s.test === 'one_of' ? e.target.value.split(',').map((v) => v.trim()).filter(Boolean) : e.target.value))} />
              )}
            </div>
          )}
        </div>
      ) : null}
      {s ? <p className="small muted">Hidden, and not required, until {shown(source ?? { name: s.field })} {s.test === 'not_empty' ? 'is filled in' : s.test === 'one_of' ? 'is one of these' : source?.type === 'checkbox' ? (s.value === true ? 'is ticked' : 'is not ticked') : `is “${String(s.value)}”`}.</p> : null}
    </fieldset>
  );
}

export function FormulaEditor({ field, fields, onChange }: { field: EditField; fields: readonly EditField[]; onChange: Patch }) {
  const [samples, setSamples] = useState<Record<string, string>>({});
  const formula = field.formula ?? '';
  const parsed = formula.trim() ? parseFormula(formula) : undefined;
  const names = new Set(fields.map((f) => f.name));
  const refs = parsed?.ok ? parsed.refs : [];
  const unknown = refs.filter((r) => !names.has(r) || r === field.name);
  let preview = '';
  if (parsed?.ok && unknown.length === 0) {
    const values = Object.fromEntries(refs.map((r) => [r, samples[r]?.trim() ? samples[r]!.trim() : null]));
    const out = applyFieldLogic([...refs.map((name) => ({ name })), { name: field.name, formula }], values).values[field.name];
    preview = out === null || out === undefined ? '(empty until its inputs are filled)' : String(out);
  }
  const problem = parsed && !parsed.ok ? `The formula ${parsed.problem}` : unknown.length > 0 ? `Not a field of this template: ${unknown.join(', ')}.` : '';
  return (
    <fieldset className="logic">
      <legend>Formula</legend>
      <div className="field">
        <label htmlFor="formula-text">Computed as <span className="muted">(e.g. qty * price, sum(a, b), round(x, 2))</span></label>
        <input id="formula-text" type="text" value={formula} maxLength={500} spellCheck={false} aria-describedby="formula-state" aria-invalid={problem ? true : undefined}
          onChange={(e) => onChange({ formula: e.target.value }, `${field.key}:formula`)} />
      </div>
      <p id="formula-state" className={problem ? 'small field-flag' : 'small muted'} role="status">{problem || (formula.trim() ? 'The signer sees the result, read-only.' : 'Leave empty for a number the signer types.')}</p>
      {refs.length > 0 && unknown.length === 0 ? (
        <div className="formula-preview" role="group" aria-label="Try the formula">
          {refs.map((r) => (
            <div className="field" key={r}>
              <label htmlFor={`sample-${r}`}>{shown(fields.find((f) => f.name === r) ?? { name: r })}</label>
              <input id={`sample-${r}`} type="text" inputMode="decimal" value={samples[r] ?? ''} onChange={(e) => setSamples((s) => ({ ...s, [r]: e.target.value }))} />
            </div>
          ))}
          <p className="small"><strong>Result:</strong> <output htmlFor={refs.map((r) => `sample-${r}`).join(' ')} data-testid="formula-result">{preview}</output></p>
        </div>
      ) : null}
    </fieldset>
  );
}

const KINDS = [
  { type: 'application/pdf', label: 'PDF' },
  { type: 'image/png', label: 'PNG' },
  { type: 'image/jpeg', label: 'JPEG' },
] as const;

export function AttachmentEditor({ field, onChange }: { field: EditField; onChange: Patch }) {
  const accept: string[] = field.accept?.length ? [...field.accept] : KINDS.map((k) => k.type);
  return (
    <fieldset className="logic">
      <legend>Files the signer attaches</legend>
      <div className="kinds">
        {KINDS.map((k) => (
          <label className="check" key={k.type}>
            <input type="checkbox" checked={accept.includes(k.type)} disabled={accept.length === 1 && accept.includes(k.type)} onChange={(e) => {
              const next = KINDS.map((x) => x.type).filter((t) => (t === k.type ? e.target.checked : accept.includes(t)));
              onChange({ accept: next.length === KINDS.length ? undefined : next }, `${field.key}:accept`);
            }} /> {k.label}
          </label>
        ))}
      </div>
      <div className="field">
        <label htmlFor="max-files">At most <span className="muted">(files, 1–10; 10 MB each)</span></label>
        <input id="max-files" type="number" min={1} max={10} inputMode="numeric" value={field.max_files ?? 1} onChange={(e) => {
          const n = Number.parseInt(e.target.value, 10);
          onChange({ max_files: Number.isInteger(n) ? Math.min(10, Math.max(1, n)) : undefined }, `${field.key}:max_files`);
        }} />
      </div>
    </fieldset>
  );
}
