import { useState } from 'react';
import { api, errorMessage, type Template } from '../api';

// "Relabel from the PDF": asks the server to read the template's PDF again for labels (its tooltips,
// its XFA, the text printed beside each field) and give them to the fields whose label is unset. It
// works on the saved template, so unsaved edits must be saved first (they would otherwise be lost or
// overwrite the new labels).

type Field = { name: string; label?: string | undefined };

export function RelabelButton({ path, fields, dirty, onRelabelled }: {
  /** The template's dashboard API path (`/test/templates/tmpl_…`). */
  path: string;
  fields: readonly Field[];
  dirty: boolean;
  onRelabelled: (t: Template, message: string) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState('');

  const relabel = async () => {
    if (dirty) {
      setNote('Save your changes first: relabelling reads the saved template.');
      return;
    }
    setBusy(true);
    setNote('Reading the PDF…');
    try {
      const t = await api<Template>('POST', `${path}/relabel`);
      const before = new Map(fields.map((f) => [f.name, f.label]));
      const changed = t.fields.filter((f) => before.has(f.name) && before.get(f.name) !== f.label).length;
      const message = changed === 0
        ? 'No labels changed: every field the PDF describes already has a label.'
        : `${changed} ${changed === 1 ? 'label' : 'labels'} taken from the PDF.`;
      setNote(message);
      onRelabelled(t, message);
    } catch (err) {
      setNote(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <span className="relabel">
      <button
        type="button"
        className="btn secondary"
        onClick={() => void relabel()}
        disabled={busy}
        title="Give fields without a label (or labelled with their raw name) the words the PDF itself has for them. Labels you wrote are kept."
      >
        Relabel from the PDF
      </button>
      <span className="relabel-note" role="status">{note}</span>
    </span>
  );
}
