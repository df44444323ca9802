import { useCallback, useEffect, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { api, errorMessage, type List, type Template } from '../api';
import { mayCall } from '../../../src/lib/dashboard-permissions';
import { useApp } from '../mode';
import { Link, navigate } from '../router';
import { Empty, ErrorNote, formatDate, PageTitle, Spinner } from '../ui/ui';

// The templates of the current mode, newest first, and the upload that makes a new one from a PDF:
// its form fields are detected on the server; the builder opens on the result.

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; templates: Template[] };

export function TemplatesPage() {
  const { mode, session } = useApp();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const fetchList = useCallback(async () => {
    setLoad({ state: 'loading' });
    try {
      const list = await api<List<Template>>('GET', `/${mode}/templates`);
      setLoad({ state: 'ready', templates: list.data });
    } catch (err) {
      setLoad({ state: 'error', message: errorMessage(err) });
    }
  }, [mode]);
  useEffect(() => {
    document.title = 'Templates · Formsign';
    void fetchList();
  }, [fetchList]);

  return (
    <>
      <PageTitle>Templates</PageTitle>
      <p className="lead">A template is a PDF with fields: upload a fillable PDF and its form fields are found for you, then adjust them in the builder. Forms are made from templates through the API.</p>
      {mayCall(session.user.role, 'POST /:mode/templates') ? <Upload /> : null}
      <section aria-labelledby="list-title" className="section">
        <h2 id="list-title">Your templates <span className="mode-tag">{mode}</span></h2>
        {load.state === 'loading' ? <Spinner label="Loading templates…" /> : null}
        {load.state === 'error' ? <ErrorNote onRetry={() => void fetchList()}>{load.message}</ErrorNote> : null}
        {load.state === 'ready' && load.templates.length === 0 ? (
          <Empty title="No templates yet">
            <p>Upload a PDF form above to make your first template. A fillable PDF (one with form fields) works best: its fields are detected. A flat PDF works too: draw its fields in the builder.</p>
            <p className="muted">Or with the API: <code>curl -F file=@form.pdf -H "Authorization: Bearer fk_{mode}_…" {location.origin}/api/v1/templates</code></p>
          </Empty>
        ) : null}
        {load.state === 'ready' && load.templates.length > 0 ? <TemplateTable templates={load.templates} /> : null}
      </section>
    </>
  );
}

function TemplateTable({ templates }: { templates: Template[] }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr><th scope="col">Name</th><th scope="col">Fields</th><th scope="col" className="hide-sm">Pages</th><th scope="col" className="hide-sm">Signers</th><th scope="col" className="hide-sm">Updated</th><th scope="col" className="hide-sm">ID</th></tr>
        </thead>
        <tbody>
          {templates.map((t) => (
            <tr key={t.id}>
              <td><Link to={`/dashboard/templates/${t.id}`} className="strong-link">{t.name}</Link></td>
              <td>{t.fields.length}</td>
              <td className="hide-sm">{t.page_count}</td>
              <td className="hide-sm">{t.signer_count}</td>
              <td className="hide-sm">{formatDate(t.updated_at)}</td>
              <td className="hide-sm"><code className="id">{t.id}</code></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Upload() {
  const { mode } = useApp();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);

  const choose = (f: File | undefined) => {
    setError(null);
    if (!f) return;
    if (f.type && f.type !== 'application/pdf' && !/\.pdf$/i.test(f.name)) {
      setError(`${f.name} is not a PDF. Choose a .pdf file.`);
      return;
    }
    setFile(f);
  };
  const drop = (e: DragEvent<HTMLLabelElement>) => {
    e.preventDefault();
    setOver(false);
    choose(e.dataTransfer.files[0]);
  };
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!file) {
      setError('Choose a PDF file first.');
      input.current?.focus();
      return;
    }
    const data = new FormData();
    const name = new FormData(e.currentTarget).get('name');
    if (typeof name === 'string' && name.trim()) data.append('name', name.trim());
    data.append('file', file, file.name);
    setBusy(true);
    setError(null);
    try {
      const t = await api<Template>('POST', `/${mode}/templates`, data);
      navigate(`/dashboard/templates/${t.id}`);
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  };

  return (
    <form className="card upload" onSubmit={(e) => void submit(e)} aria-labelledby="upload-title">
      <h2 id="upload-title">Upload a PDF</h2>
      <label className={`dropzone${over ? ' over' : ''}`} onDragOver={(e) => { e.preventDefault(); setOver(true); }} onDragLeave={() => setOver(false)} onDrop={drop}>
        <input ref={input} type="file" name="file" accept="application/pdf,.pdf,.docx,.odt,application/vnd.openxmlformats-officedocument.wordprocessingml.document,application/vnd.oasis.opendocument.text" className="visually-hidden" onChange={(e) => choose(e.target.files?.[0])} aria-describedby="drop-help" />
        <span className="drop-icon" aria-hidden="true">⇪</span>
        <span className="drop-main">{file ? file.name : 'Choose a PDF or drop it here'}</span>
        <span className="muted" id="drop-help">{file ? `${Math.max(1, Math.round(file.size / 1024))} KB · choose another to replace it` : 'Up to 20 MB. Fillable PDFs have their fields detected; Word (.docx) and OpenDocument (.odt) files are converted, and {{text tags}} become fields.'}</span>
      </label>
      <div className="upload-row">
        <div className="field grow">
          <label htmlFor="upload-name">Template name <span className="muted">(optional)</span></label>
          <input id="upload-name" name="name" type="text" maxLength={200} placeholder={file ? file.name.replace(/\.(pdf|docx|odt)$/i, '') : 'Defaults to the file name'} />
        </div>
        <button type="submit" className="btn primary" disabled={busy}>{busy ? 'Reading the PDF…' : 'Upload and detect fields'}</button>
      </div>
      {error ? <div className="note error" role="alert"><span><strong>The PDF was not imported.</strong> {error}</span></div> : null}
    </form>
  );
}
