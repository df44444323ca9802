import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { api, ApiError, errorMessage, type FieldType, type Template } from '../api';
import { useApp } from '../mode';
import { guardLeaving, Link, navigate } from '../router';
import { ErrorNote, Notice, Spinner } from '../ui/ui';
import { clampRect, duplicateLabelKeys, newField, signerColour, toFields, TYPE_LABEL, withKeys, type EditField } from './fields';
import { Inspector } from './Inspector';
import { Palette } from './Palette';
import { SignerNames } from './SignerNames';
import { toSignerRoles } from '../roles';
import { PageView, type PageSize } from './PageView';
import { RelabelButton } from './RelabelButton';
import { DetectTags } from './DetectTags';
import { openPdf } from './pdf';

// The template builder: the PDF's pages with the template's fields over them, a palette of field
// types, the selected field's properties, undo, and save (PATCH through the API's updateTemplate).

type Load = { state: 'loading' } | { state: 'error'; message: string; notFound: boolean } | { state: 'ready' };
type Status = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'error'; message: string };
type Rect = { x: number; y: number; width: number; height: number };

const MAX_SCALE = 1.6;

export default function Builder({ templateId }: { templateId: string }) {
  const { mode } = useApp();
  const base = `/${mode}/templates/${encodeURIComponent(templateId)}`;
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [pages, setPages] = useState<PageSize[]>([]);
  const [scale, setScale] = useState(1);
  const [fields, setFieldsState] = useState<EditField[]>([]);
  const duplicates = useMemo(() => duplicateLabelKeys(fields), [fields]);
  const [past, setPast] = useState<EditField[][]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [saved, setSaved] = useState({ name: '', fields: '', roles: '[]' });
  /** The signer slots' names as typed (slot → name); saved as the template's `signers`. */
  const [roleNames, setRoleNames] = useState<Record<number, string>>({});
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [drawType, setDrawType] = useState<FieldType>('text');
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [announce, setAnnounce] = useState('');
  /** The field a refused save named (`fields[3].options`): its properties show the reason. */
  const [invalidKey, setInvalidKey] = useState<string | null>(null);
  // What the upload found in the file (scripts removed, an XFA part ignored, no form fields…): shown
  // until the person closes it, so an upload's warnings are never lost on the way to the builder.
  const [warnings, setWarnings] = useState<string[]>([]);
  const fieldsRef = useRef<EditField[]>([]);
  const lastEdit = useRef<string | null>(null);
  const gestureStart = useRef<EditField[] | null>(null);
  const stage = useRef<HTMLDivElement>(null);

  const setFields = (next: EditField[]) => {
    fieldsRef.current = next;
    setFieldsState(next);
  };
  /** A change that undo can take back; `coalesce` joins successive edits of one property into one step. */
  const commit = useCallback((next: EditField[], coalesce?: string) => {
    const prev = fieldsRef.current;
    if (!(coalesce && coalesce === lastEdit.current)) setPast((p) => [...p.slice(-99), prev]);
    lastEdit.current = coalesce ?? null;
    setFields(next);
    setStatus((s) => (s.kind === 'saved' || s.kind === 'error' ? { kind: 'idle' } : s));
  }, []);

  const undo = useCallback(() => {
    setPast((p) => {
      const prev = p.at(-1);
      if (!prev) return p;
      lastEdit.current = null;
      setFields(prev);
      setAnnounce('Undone.');
      return p.slice(0, -1);
    });
  }, []);

  // Loading: the template, then its PDF through pdf.js.
  useEffect(() => {
    let cancelled = false;
    let opened: PDFDocumentProxy | undefined;
    void (async () => {
      try {
        const t = await api<Template>('GET', base);
        if (cancelled) return;
        document.title = `${t.name} · Builder · Formsign`;
        setName(t.name);
        setWarnings(t.warnings);
        const initial = withKeys(t.fields);
        setFields(initial);
        const names = Object.fromEntries((t.signers ?? []).map((r) => [r.slot, r.role]));
        setRoleNames(names);
        setSaved({ name: t.name, fields: JSON.stringify(toFields(initial)), roles: JSON.stringify(toSignerRoles(names)) });
        opened = await openPdf(`/dashboard/api${base}/pdf`);
        if (cancelled) return;
        const sizes: PageSize[] = [];
        for (let n = 1; n <= opened.numPages; n++) {
          const v = (await opened.getPage(n)).getViewport({ scale: 1 });
          sizes.push({ width: v.width, height: v.height });
        }
        if (cancelled) return;
        setPages(sizes);
        setDoc(opened);
        setLoad({ state: 'ready' });
      } catch (err) {
        if (!cancelled) setLoad({ state: 'error', message: errorMessage(err), notFound: err instanceof ApiError && err.status === 404 });
      }
    })();
    return () => {
      cancelled = true;
      void opened?.destroy();
    };
  }, [base]);

  // The scale fits the widest page into the stage; it follows the window's size.
  useEffect(() => {
    if (!stage.current || pages.length === 0) return;
    const widest = Math.max(...pages.map((p) => p.width));
    const fit = () => {
      const width = stage.current?.clientWidth ?? 600;
      setScale(Math.min(MAX_SCALE, Math.max(0.3, (width - 24) / widest)));
    };
    fit();
    const observer = new ResizeObserver(() => fit());
    observer.observe(stage.current);
    return () => observer.disconnect();
  }, [pages, load.state]);

  const dirty = name !== saved.name || JSON.stringify(toFields(fields)) !== saved.fields || JSON.stringify(toSignerRoles(roleNames)) !== saved.roles;
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    guardLeaving(() => window.confirm('This template has unsaved changes. Leave without saving them?'));
    return () => {
      window.removeEventListener('beforeunload', warn);
      guardLeaving(null);
    };
  }, [dirty]);

  const select = (key: string | null) => setSelected(key);
  /** Moves focus to a field's box on the next frame (it renders then), unless focus has moved on in
   *  the meantime: a person who clicked a field in the list and went straight to its properties must
   *  keep typing there, not have Delete land on the box and remove the field. */
  const focusBox = (key: string) => {
    const from = document.activeElement;
    requestAnimationFrame(() => {
      const now = document.activeElement;
      if (now !== from && now !== null && now !== document.body) return;
      document.querySelector<HTMLElement>(`.box[data-key="${key}"]`)?.focus({ preventScroll: false });
    });
  };

  const add = (f: EditField, how: string) => {
    commit([...fieldsRef.current, f]);
    setSelected(f.key);
    setAnnounce(`${TYPE_LABEL[f.type]} field ${f.name} added on page ${f.page} ${how}.`);
  };

  /** The page in view: the one whose area is the most visible in the window. */
  const pageInView = (): number => {
    let best = 1;
    let bestArea = -1;
    document.querySelectorAll<HTMLElement>('.pdf-page').forEach((el) => {
      const r = el.getBoundingClientRect();
      const visible = Math.max(0, Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0));
      if (visible > bestArea) {
        bestArea = visible;
        best = Number(el.dataset['page']);
      }
    });
    return best;
  };

  const addToPageInView = (type: FieldType) => {
    const page = pageInView();
    const size = pages[page - 1];
    const el = document.querySelector<HTMLElement>(`.pdf-page[data-page="${page}"]`);
    if (!size || !el) return;
    // The centre of the part of the page in view, in PDF points; then, while another field starts
    // there, offset down and right from it, so new fields never land on top of each other.
    const r = el.getBoundingClientRect();
    const top = Math.max(r.top, 0);
    const bottom = Math.min(r.bottom, window.innerHeight);
    const probe = newField(fieldsRef.current, type, page, { x: 0, y: 0 }, size);
    let x = ((r.width / 2) / scale) - probe.width / 2;
    let y = (((top + bottom) / 2 - r.top) / scale) - probe.height / 2;
    const taken = (px: number, py: number) => fieldsRef.current.some((f) => f.page === page && Math.abs(f.x - px) < 8 && Math.abs(f.y - py) < 8);
    for (let i = 0; i < 40 && taken(x, y); i++) {
      x += 16;
      y += 16;
    }
    add({ ...probe, ...clampRect({ x, y, width: probe.width, height: probe.height }, size) }, 'in the middle of the view');
    askLabel();
  };

  /**
   * Signers see a field's label: after adding one, the cursor goes to it (the name is prefilled). In a
   * layout effect, in the same commit that shows the new field, not on a timer: a key pressed right
   * after adding (Delete on the new box) must never go to the label because a timer fired late.
   */
  const [labelAsked, setLabelAsked] = useState(0);
  const askLabel = () => setLabelAsked((n) => n + 1);
  useLayoutEffect(() => {
    if (labelAsked === 0) return;
    // Without scrolling: the field just placed stays where the pointer left it.
    document.querySelector<HTMLInputElement>('#insp-label')?.focus({ preventScroll: true });
  }, [labelAsked]);

  const dropAt = (type: FieldType, clientX: number, clientY: number): boolean => {
    for (const el of document.querySelectorAll<HTMLElement>('.pdf-page')) {
      const r = el.getBoundingClientRect();
      if (clientX < r.left || clientX > r.right || clientY < r.top || clientY > r.bottom) continue;
      const page = Number(el.dataset['page']);
      const size = pages[page - 1]!;
      const probe = newField(fieldsRef.current, type, page, { x: 0, y: 0 }, size);
      const x = (clientX - r.left) / scale - probe.width / 2;
      const y = (clientY - r.top) / scale - probe.height / 2;
      add({ ...probe, ...clampRect({ x, y, width: probe.width, height: probe.height }, size) }, 'where it was dropped');
      return true;
    }
    setAnnounce('Drop the field on a page of the document.');
    return false;
  };

  const draw = (page: number, rect: Rect) => {
    const size = pages[page - 1]!;
    add(newField(fieldsRef.current, drawType, page, rect, size), 'as drawn');
    askLabel();
  };

  const patchField = (key: string, patch: Partial<EditField>, coalesce?: string) => {
    commit(fieldsRef.current.map((f) => (f.key === key ? { ...f, ...patch } : f)), coalesce);
  };

  const remove = (key: string) => {
    const f = fieldsRef.current.find((x) => x.key === key);
    commit(fieldsRef.current.filter((x) => x.key !== key));
    setSelected(null);
    if (f) setAnnounce(`Field ${f.name} deleted. Undo brings it back.`);
  };

  const boxKey = (e: KeyboardEvent<HTMLDivElement>, f: EditField) => {
    const step = e.shiftKey ? 10 : 1;
    const size = pages[f.page - 1]!;
    const arrows: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const d = arrows[e.key];
    if (d) {
      e.preventDefault();
      const rect = e.altKey
        ? clampRect({ x: f.x, y: f.y, width: f.width + d[0], height: f.height + d[1] }, size)
        : clampRect({ x: f.x + d[0], y: f.y + d[1], width: f.width, height: f.height }, size);
      patchField(f.key, rect, `${f.key}:${e.altKey ? 'size' : 'move'}`);
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      remove(f.key);
    } else if (e.key === 'Escape') {
      setSelected(null);
      (e.currentTarget as HTMLElement).blur();
    }
  };

  // Undo from anywhere in the builder but a text box (where the browser's own undo applies).
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      const typing = target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT');
      if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === 'z' && !typing) {
        e.preventDefault();
        undo();
      }
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault();
        void save();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  /** The template as the server saved it (a save, a relabel). */
  const showSaved = (t: Template) => {
    const next = withKeys(t.fields);
    // Keep the selection on the same field (by position: the server keeps the order).
    const index = fieldsRef.current.findIndex((f) => f.key === selected);
    setFields(next);
    setSelected(index >= 0 ? (next[index]?.key ?? null) : null);
    setName(t.name);
    setWarnings((shown) => (shown.length === 0 ? shown : t.warnings));
    const names = Object.fromEntries((t.signers ?? []).map((r) => [r.slot, r.role]));
    setRoleNames(names);
    setSaved({ name: t.name, fields: JSON.stringify(toFields(next)), roles: JSON.stringify(toSignerRoles(names)) });
  };

  const relabelled = (t: Template, message: string) => {
    showSaved(t);
    setAnnounce(message);
  };

  const save = async () => {
    setStatus({ kind: 'saving' });
    setInvalidKey(null);
    try {
      const body: { name?: string; fields: unknown; signers: unknown } = { fields: toFields(fieldsRef.current), signers: toSignerRoles(roleNames) };
      if (name.trim() !== saved.name) body.name = name.trim();
      showSaved(await api<Template>('PATCH', base, body));
      setStatus({ kind: 'saved' });
      setAnnounce('Template saved.');
    } catch (err) {
      const message = errorMessage(err);
      setStatus({ kind: 'error', message });
      const m = err instanceof ApiError ? /^fields\[(\d+)\]/.exec(err.param ?? '') : null;
      const bad = m ? fieldsRef.current[Number(m[1])] : undefined;
      if (bad) {
        setSelected(bad.key);
        setInvalidKey(bad.key);
      }
    }
  };


  const deleteTemplate = async () => {
    try {
      await api('DELETE', base);
      guardLeaving(null);
      navigate('/dashboard/templates');
    } catch (err) {
      setStatus({ kind: 'error', message: errorMessage(err) });
      setConfirmDelete(false);
    }
  };

  if (load.state === 'loading') return <Spinner label="Opening the template…" />;
  if (load.state === 'error') {
    return (
      <div className="builder-error">
        <h1>{load.notFound ? 'Template not found' : 'The template could not be opened'}</h1>
        <ErrorNote>{load.message}</ErrorNote>
        <Link className="btn secondary" to="/dashboard/templates">Back to templates</Link>
      </div>
    );
  }

  const current = fields.find((f) => f.key === selected) ?? null;
  const signers = fields.reduce((n, f) => Math.max(n, f.signer), 1);
  // A slot named earlier whose fields are gone stays listed, so its name can be cleared.
  const namedSlots = Math.max(signers, ...Object.keys(roleNames).filter((k) => roleNames[Number(k)]?.trim()).map(Number));
  const roles = toSignerRoles(roleNames);
  return (
    <div className="builder">
      <div className="builder-bar">
        {/* The page's one level-1 heading, for screen-reader navigation; the editable name is what shows. */}
        <h1 className="visually-hidden">Template builder: {name}</h1>
        <Link to="/dashboard/templates" className="back" aria-label="Back to templates">←</Link>
        <div className="name-edit">
          <label htmlFor="template-name" className="visually-hidden">Template name</label>
          <input id="template-name" value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
        </div>
        <span className="save-state" role="status">
          {status.kind === 'saving' ? 'Saving…' : status.kind === 'saved' && !dirty ? 'All changes saved' : dirty ? 'Unsaved changes' : ''}
        </span>
        <div className="bar-actions">
          <RelabelButton path={base} fields={fields} dirty={dirty} onRelabelled={relabelled} />
          <DetectTags path={base} onAdd={(found, signers) => {
            commit([...fieldsRef.current, ...withKeys(found)]);
            // Roles the tags name fill slots that have no name yet.
            setRoleNames((n) => ({ ...Object.fromEntries(signers.map((r) => [r.slot, r.role])), ...Object.fromEntries(Object.entries(n).filter(([, v]) => v.trim())) }));
            setAnnounce(`${found.length} ${found.length === 1 ? 'field' : 'fields'} added from the document's tags.`);
          }} />
          <button type="button" className="btn secondary" onClick={undo} disabled={past.length === 0} aria-keyshortcuts="Control+Z">Undo</button>
          <button type="button" className="btn primary" onClick={() => void save()} disabled={status.kind === 'saving' || !dirty} aria-keyshortcuts="Control+S">Save</button>
        </div>
      </div>
      {status.kind === 'error' ? <div className="builder-note"><ErrorNote>{status.message}</ErrorNote></div> : null}
      {warnings.length > 0 ? (
        <div className="builder-note template-warnings" role="region" aria-label="What the import found in this PDF">
          <Notice tone="warning">
            <strong>What the import found in this PDF</strong>
            <ul>{warnings.map((w) => <li key={w}>{w}</li>)}</ul>
            <button type="button" className="btn ghost small" onClick={() => setWarnings([])}>Dismiss</button>
          </Notice>
        </div>
      ) : null}
      <div className="builder-body">
        <aside className="builder-side left" aria-label="Fields">
          {fields.length > 0 && !fields.some((f) => f.type === 'signature') ? (
            <Notice tone="warning">This template has no signature field, so its signers can fill it in but not sign it. Choose <strong>Signature</strong> in the palette and draw a box where they sign.</Notice>
          ) : null}
          <Palette drawType={drawType} onChoose={setDrawType} onDrop={dropAt} onAdd={addToPageInView} />
          <SignerNames slots={namedSlots} names={roleNames} onChange={(slot, value) => { setRoleNames((n) => ({ ...n, [slot]: value })); setStatus((s) => (s.kind === 'saved' || s.kind === 'error' ? { kind: 'idle' } : s)); }} />
          <div className="field-list">
            <h2 className="panel-title">Fields ({fields.length})</h2>
            {fields.length === 0 ? <p className="muted small">No fields yet. Drag one from above onto the page, or draw a box on the page.</p> : null}
            <ul>
              {fields.map((f) => (
                <li key={f.key}>
                  <button type="button" data-field-name={f.name} className={f.key === selected ? 'current' : undefined} aria-pressed={f.key === selected} onClick={() => { select(f.key); focusBox(f.key); }}>
                    <span className="swatch" style={{ backgroundColor: signerColour(f.signer) }} aria-hidden="true" />
                    {/* The label a person gave (or the import found); the raw AcroForm name on hover. */}
                    <span className="fl-name" title={f.label && f.label !== f.name ? `Field name: ${f.name}` : undefined}>{f.label || f.name}{f.label && f.label !== f.name ? <span className="visually-hidden"> (field name {f.name})</span> : null}</span>
                    <span className="fl-meta">{TYPE_LABEL[f.type]} · p{f.page}</span>
                    {duplicates.has(f.key) ? <span className="fl-flag" title="Another field on this page has the same label">Same label</span> : null}
                  </button>
                </li>
              ))}
            </ul>
          </div>
          <div className="danger-zone">
            {confirmDelete ? (
              <div className="confirm-delete" role="group" aria-label="Confirm deletion">
                <p>Delete this template? Forms already made from it keep working.</p>
                <button type="button" className="btn danger small" onClick={() => void deleteTemplate()}>Delete template</button>
                <button type="button" className="btn ghost small" onClick={() => setConfirmDelete(false)}>Cancel</button>
              </div>
            ) : <button type="button" className="btn ghost small danger-text" onClick={() => setConfirmDelete(true)}>Delete template…</button>}
          </div>
        </aside>
        <div className="stage" ref={stage}>
          {doc ? pages.map((size, i) => (
            <PageView
              key={i}
              doc={doc}
              page={i + 1}
              size={size}
              scale={scale}
              fields={fields.filter((f) => f.page === i + 1)}
              selected={selected}
              drawLabel={TYPE_LABEL[drawType].toLowerCase()}
              onSelect={select}
              onGestureStart={() => { gestureStart.current = fieldsRef.current; }}
              onLive={(key, rect) => setFields(fieldsRef.current.map((f) => (f.key === key ? { ...f, ...rect } : f)))}
              onGestureEnd={(changed) => {
                const before = gestureStart.current;
                gestureStart.current = null;
                if (changed && before) {
                  setPast((p) => [...p.slice(-99), before]);
                  lastEdit.current = null;
                  setStatus((s) => (s.kind === 'saved' ? { kind: 'idle' } : s));
                }
              }}
              onDraw={draw}
              onBoxKey={boxKey}
            />
          )) : null}
        </div>
        <aside className="builder-side right" aria-label="Properties">
          {current ? (
            <Inspector field={current} signers={signers} roles={roles} error={status.kind === 'error' && invalidKey === current.key ? status.message : null} onChange={(patch, key) => patchField(current.key, patch, key)} onDelete={() => remove(current.key)} duplicateLabel={duplicates.has(current.key)} fields={fields} />
          ) : (
            <div className="inspector empty-inspector">
              <h2 className="panel-title">Field properties</h2>
              <p className="muted">Select a field on the page or in the list to edit its name, label, signer, options and size.</p>
              <p className="muted small">Keyboard: Tab to a field, arrow keys move it (Shift: 10 pt), Alt + arrows resize, Delete removes, Ctrl+Z undoes.</p>
            </div>
          )}
        </aside>
      </div>
      <div className="visually-hidden" role="status" aria-live="polite">{announce}</div>
    </div>
  );
}
