import { useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import { api, ApiError, errorMessage, getIfChanged, type BulkPreview, type BulkSend, type BulkSendRow, type List, type Template } from '../api';
import { isPrefillable } from '../../../src/domain/forms/value-rules.js';
import { csvCell } from '../../../src/lib/csv-cell';
import { useApp } from '../mode';
import { usePoll } from '../poll';
import { Link } from '../router';
import { Empty, ErrorNote, formatDateTime, Notice, PageTitle, Spinner } from '../ui/ui';
import { StatusTag } from './status';

// Bulk send (issue 42): pick a template, upload a CSV (one line per form), look at the first rows as
// they map to the template's fields and at every row the server refuses (the API's own checks), send,
// watch the worker's progress, and download what became of each row as a CSV.

function download(filename: string, lines: string[][]): void {
  const blob = new Blob([`${lines.map((l) => l.map(csvCell).join(',')).join('\r\n')}\r\n`], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function BulkSendPage() {
  const { mode } = useApp();
  const [templates, setTemplates] = useState<Template[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [templateId, setTemplateId] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<BulkPreview | null>(null);
  const [checking, setChecking] = useState(false);
  const [sending, setSending] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const [bulk, setBulk] = useState<BulkSend | null>(null);
  const [earlier, setEarlier] = useState<BulkSend[] | null>(null);
  const etag = useRef<string | null>(null);

  useEffect(() => {
    document.title = 'Bulk send · Formsign';
    api<List<Template>>('GET', `/${mode}/templates`).then((l) => {
      setTemplates(l.data);
      setTemplateId(l.data[0]?.id ?? '');
    }, (e: unknown) => setLoadError(errorMessage(e)));
  }, [mode]);

  // The latest bulk sends, to come back to one after leaving the page; read again after each send.
  useEffect(() => {
    api<List<BulkSend>>('GET', `/${mode}/bulk-sends?limit=10`).then((l) => setEarlier(l.data), () => setEarlier([]));
  }, [mode, bulk?.id]);

  const template = templates?.find((t) => t.id === templateId);

  const upload = useCallback(<T,>(path: string) => {
    const body = new FormData();
    body.append('template_id', templateId);
    if (file) body.append('file', file, file.name);
    return api<T>('POST', `/${mode}/bulk-sends${path}`, body);
  }, [file, mode, templateId]);

  // Each new file or template is checked by the server at once: the preview is what would be sent.
  useEffect(() => {
    setPreview(null);
    setErr(null);
    if (!file || !templateId) return;
    let current = true;
    setChecking(true);
    upload<BulkPreview>('/preview').then(
      (p) => current && setPreview(p),
      (e: unknown) => current && setErr(errorMessage(e)),
    ).finally(() => current && setChecking(false));
    return () => {
      current = false;
    };
  }, [file, templateId, upload]);

  const send = async () => {
    setSending(true);
    setErr(null);
    try {
      etag.current = null;
      setBulk(await upload<BulkSend>(''));
    } catch (e) {
      setErr(e instanceof ApiError && e.code === 'quota_exceeded' ? `Not sent: ${e.message}` : errorMessage(e));
    } finally {
      setSending(false);
    }
  };

  const watch = useCallback(async () => {
    if (!bulk || bulk.status === 'completed') return;
    const fresh = await getIfChanged<BulkSend>(`/${mode}/bulk-sends/${bulk.id}`, etag);
    if (fresh) setBulk((b) => ({ ...fresh, ...(b?.row_errors ? { row_errors: b.row_errors } : {}) }));
  }, [bulk, mode]);
  usePoll(watch, 1000, [watch]);

  const results = async () => {
    if (!bulk) return;
    const lines: string[][] = [['row', 'status', 'form_id', 'error_code', 'error_message', 'error_param']];
    let after = 0;
    for (;;) {
      const page = await api<List<BulkSendRow>>('GET', `/${mode}/bulk-sends/${bulk.id}/rows?limit=100&starting_after=${after}`);
      for (const r of page.data) lines.push([String(r.row), r.status, r.form_id ?? '', r.error?.code ?? '', r.error?.message ?? '', r.error?.param ?? '']);
      if (!page.has_more || page.data.length === 0) break;
      after = page.data[page.data.length - 1]!.row;
    }
    download(`${bulk.id}-results.csv`, lines);
  };

  const csvTemplate = () => {
    if (!template) return;
    const fields = template.fields.filter(isPrefillable).map((f) => `prefill.${f.name}`);
    download(`${template.name}-bulk.csv`, [['name', ...fields, 'recipient.1.email', 'recipient.1.name']]);
  };

  const chooseFile = (e: ChangeEvent<HTMLInputElement>) => {
    setBulk(null);
    setFile(e.target.files?.[0] ?? null);
  };

  if (loadError) return <ErrorNote>{loadError}</ErrorNote>;
  if (!templates) return <Spinner label="Loading templates…" />;
  if (templates.length === 0) {
    return (
      <>
        <PageTitle>Bulk send</PageTitle>
        <Empty title="No templates yet"><p>Bulk send fills one template for many recipients. <Link to="/dashboard/templates">Add a template</Link> first.</p></Empty>
      </>
    );
  }
  const settled = bulk ? bulk.sent + bulk.failed : 0;
  return (
    <>
      <PageTitle>Bulk send</PageTitle>
      <p className="lead">One form per line of a CSV: each line fills the template and is sent to its recipients. Columns: <code>name</code>, <code>prefill.&lt;field&gt;</code> and <code>recipient.1.email</code>, <code>.phone</code>, <code>.name</code>, <code>.locale</code> (then <code>recipient.2.…</code>).</p>
      <section className="card" aria-labelledby="bulk-source">
        <h2 id="bulk-source">CSV</h2>
        <div className="field">
          <label htmlFor="bulk-template">Template</label>
          <select id="bulk-template" value={templateId} onChange={(e) => { setBulk(null); setTemplateId(e.target.value); }}>
            {templates.map((t) => <option key={t.id} value={t.id}>{t.name}</option>)}
          </select>
        </div>
        <p className="small">Start from <button type="button" className="btn secondary small" onClick={csvTemplate}>a blank CSV</button> with this template's columns.</p>
        <div className="field">
          <label htmlFor="bulk-file">CSV file</label>
          <input id="bulk-file" type="file" accept=".csv,text/csv" onChange={chooseFile} />
        </div>
        {checking ? <Spinner label="Checking every row…" /> : null}
        {err ? <ErrorNote>{err}</ErrorNote> : null}
      </section>
      {preview && !bulk ? <PreviewCard preview={preview} sending={sending} onSend={() => void send()} /> : null}
      {bulk ? (
        <section className="card" aria-labelledby="bulk-progress">
          <h2 id="bulk-progress">Progress <StatusTag status={bulk.status} /></h2>
          <progress className="bulk-progress" max={bulk.total} value={settled} aria-label="Rows settled">{settled} of {bulk.total}</progress>
          <p role="status" aria-live="polite"><strong>{bulk.sent}</strong> sent, <strong>{bulk.failed}</strong> failed, {bulk.total - settled} to go, of {bulk.total} rows.</p>
          {bulk.row_errors && bulk.row_errors.length > 0 ? <RowErrors errors={bulk.row_errors} /> : null}
          <p><button type="button" className="btn secondary" onClick={() => void results().catch((e: unknown) => setErr(errorMessage(e)))}>Download results (CSV)</button> <Link to="/dashboard/forms">See the forms</Link></p>
          <p className="small muted">Bulk send <code className="id">{bulk.id}</code></p>
        </section>
      ) : null}
      {earlier && earlier.length > 0 ? (
        <EarlierBulkSends bulks={earlier} templates={templates} shown={bulk?.id} onShow={(b) => { etag.current = null; setBulk(b); }} />
      ) : null}
    </>
  );
}

function EarlierBulkSends({ bulks, templates, shown, onShow }: { bulks: BulkSend[]; templates: Template[]; shown: string | undefined; onShow: (b: BulkSend) => void }) {
  return (
    <section className="card" aria-labelledby="bulk-earlier">
      <h2 id="bulk-earlier">Recent sends</h2>
      <div className="table-wrap" role="region" aria-label="Recent sends" tabIndex={0}>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Template</th>
              <th scope="col">Status</th>
              <th scope="col">Sent</th>
              <th scope="col">Failed</th>
              <th scope="col">Rows</th>
              <th scope="col"><span className="visually-hidden">Progress</span></th>
            </tr>
          </thead>
          <tbody>
            {bulks.map((b) => (
              <tr key={b.id}>
                <td>{formatDateTime(b.created_at)}</td>
                <td>{templates.find((t) => t.id === b.template_id)?.name ?? <code className="id">{b.template_id}</code>}</td>
                <td><StatusTag status={b.status} /></td>
                <td>{b.sent}</td>
                <td>{b.failed}</td>
                <td>{b.total}</td>
                <td>{b.id === shown ? <span className="muted">Shown above</span> : <button type="button" className="btn secondary small" onClick={() => onShow(b)} aria-label={`Show the bulk send of ${formatDateTime(b.created_at)}`}>Show</button>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function PreviewCard({ preview, sending, onSend }: { preview: BulkPreview; sending: boolean; onSend: () => void }) {
  const shortOfQuota = preview.fit < preview.valid;
  return (
    <section className="card" aria-labelledby="bulk-preview">
      <h2 id="bulk-preview">Preview</h2>
      <p>{preview.total} rows: <strong>{preview.valid}</strong> will be sent{preview.row_errors.length > 0 ? <>, <strong>{preview.row_errors.length}</strong> refused (below)</> : null}. The first {preview.rows.length}, as they fill the template:</p>
      {/* Scrolls sideways on a phone: focusable, so a keyboard can scroll it too. */}
      <div className="table-wrap" role="region" aria-label="The first rows" tabIndex={0}>
        <table className="table">
          <caption className="visually-hidden">The first rows mapped to the template's fields</caption>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Recipients</th>
              {preview.fields.map((f) => <th key={f.name} scope="col">{f.label}</th>)}
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((r) => (
              <tr key={r.row}>
                <th scope="row">{r.row}</th>
                {r.error ? <td colSpan={preview.fields.length + 1} className="field-error">{r.error.message}</td> : (
                  <>
                    <td>{r.recipients?.map((x) => x.email ?? x.phone).join(', ')}</td>
                    {preview.fields.map((f) => <td key={f.name}>{String(r.prefill?.[f.name] ?? '')}</td>)}
                  </>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {preview.row_errors.length > 0 ? <RowErrors errors={preview.row_errors} /> : null}
      {shortOfQuota ? <Notice tone="warning">This month's quota covers {preview.fit} of the {preview.valid} rows (each row counts as two API calls). Remove rows, or ask the operator to raise the quota.</Notice> : null}
      <p><button type="button" className="btn primary" disabled={sending || preview.valid === 0 || shortOfQuota} onClick={onSend}>{sending ? 'Sending…' : `Send ${preview.valid} form${preview.valid === 1 ? '' : 's'}`}</button></p>
    </section>
  );
}

function RowErrors({ errors }: { errors: ReadonlyArray<{ row: number; error: { message: string; param?: string } }> }) {
  return (
    <details className="row-errors" open={errors.length <= 10}>
      <summary>{errors.length} row{errors.length === 1 ? '' : 's'} refused</summary>
      <ul>
        {errors.map((e) => <li key={e.row}><strong>Row {e.row}:</strong> {e.error.message}</li>)}
      </ul>
    </details>
  );
}
