import { useState } from 'react';
import { api, errorMessage, type Field } from '../api';

// "Detect tags" (issue 41): asks the server to read the template's document again for text tags
// (`{{name;type=signature;role=Tenant}}`) and offers the fields found that the template lacks; the
// person ticks the ones to add, which join the builder's fields as unsaved edits (Save keeps them).

interface Detected {
  fields: Field[];
  signers: Array<{ slot: number; role: string }>;
  warnings: string[];
}

export function DetectTags({ path, onAdd }: {
  /** The template's dashboard API path (`/test/templates/tmpl_…`). */
  path: string;
  onAdd: (fields: Field[], signers: Detected['signers']) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [found, setFound] = useState<Detected | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [note, setNote] = useState('');

  const detect = async () => {
    setBusy(true);
    setNote('Reading the document for tags…');
    try {
      const d = await api<Detected>('POST', `${path}/detect-tags`);
      setFound(d);
      setChosen(new Set(d.fields.map((f) => f.name)));
      setNote(d.fields.length === 0 ? 'No new fields: the document has no tags this template lacks.' : `${d.fields.length} ${d.fields.length === 1 ? 'field' : 'fields'} found.`);
    } catch (err) {
      setNote(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const add = () => {
    if (!found) return;
    const fields = found.fields.filter((f) => chosen.has(f.name));
    onAdd(fields, found.signers);
    setNote(`${fields.length} ${fields.length === 1 ? 'field' : 'fields'} added. Save to keep them.`);
    setFound(null);
  };

  return (
    <span className="detect-tags">
      <button type="button" className="btn secondary" onClick={() => void detect()} disabled={busy} title="Find fields written in the document as text tags, such as {{tenant_name;role=Tenant}}.">Detect tags</button>
      <span className="relabel-note" role="status">{note}</span>
      {found && found.fields.length > 0 ? (
        <div className="detect-found" role="group" aria-label="Fields found in the document">
          <ul>
            {found.fields.map((f) => (
              <li key={f.name}>
                <label className="check">
                  <input type="checkbox" checked={chosen.has(f.name)} onChange={(e) => setChosen((s) => {
                    const next = new Set(s);
                    if (e.target.checked) next.add(f.name);
                    else next.delete(f.name);
                    return next;
                  })} /> {f.label || f.name} <span className="muted">· {f.type} · p{f.page}{f.required ? ' · required' : ''}</span>
                </label>
              </li>
            ))}
          </ul>
          {found.warnings.length > 0 ? <ul className="small muted">{found.warnings.map((w) => <li key={w}>{w}</li>)}</ul> : null}
          <button type="button" className="btn primary small" onClick={add} disabled={chosen.size === 0}>Add {chosen.size} {chosen.size === 1 ? 'field' : 'fields'}</button>
          <button type="button" className="btn ghost small" onClick={() => setFound(null)}>Cancel</button>
        </div>
      ) : null}
    </span>
  );
}
