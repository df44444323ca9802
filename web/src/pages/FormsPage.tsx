import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { errorMessage, getIfChanged, type Form, type List } from '../api';
import { mayCall } from '../../../src/lib/dashboard-permissions';
import { useApp } from '../mode';
import { usePoll } from '../poll';
import { Link } from '../router';
import { Empty, ErrorNote, formatDateTime, PageTitle, Spinner } from '../ui/ui';
import { StatusTag } from './status';

// The forms of the current mode, newest first: a status filter, a search by name, pages by cursor.
// The page on screen is asked again every few seconds with its ETag, so a status changes in place.

const STATUSES = ['draft', 'sent', 'viewed', 'signed', 'declined', 'voided', 'expired'] as const;
const PAGE = 20;

export function FormsPage() {
  const { mode, session } = useApp();
  const [status, setStatus] = useState('');
  const [name, setName] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const [list, setList] = useState<List<Form> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const etag = useRef<string | null>(null);

  const query = () => {
    const q = new URLSearchParams({ limit: String(PAGE) });
    if (status) q.set('status', status);
    if (name.trim()) q.set('name', name.trim());
    const after = cursors.at(-1);
    if (after) q.set('starting_after', after);
    return `/${mode}/forms?${q.toString()}`;
  };
  const fetchList = useCallback(async () => {
    try {
      const fresh = await getIfChanged<List<Form>>(query(), etag);
      if (fresh) setList(fresh);
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  }, [mode, status, name, cursors]);
  useEffect(() => {
    document.title = 'Forms · Formsign';
  }, []);
  useEffect(() => {
    etag.current = null;
  }, [mode, status, name, cursors]);
  usePoll(fetchList, 3000, [fetchList]);

  const search = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = new FormData(e.currentTarget).get('q');
    setCursors([]);
    setName(typeof v === 'string' ? v : '');
  };

  return (
    <>
      <PageTitle actions={mayCall(session.user.role, 'POST /:mode/forms') ? <><Link to="/dashboard/forms/new" className="btn primary">New form</Link><Link to="/dashboard/forms/generate" className="btn secondary">From a description</Link></> : undefined}>Forms</PageTitle>
      <p className="lead">Forms made from your templates: who they went to, who viewed and signed, and the signed PDF. Statuses update by themselves.</p>
      <form className="filters" role="search" onSubmit={search} aria-label="Find forms">
        <div className="field">
          <label htmlFor="forms-q">Name</label>
          <input id="forms-q" name="q" type="search" maxLength={200} placeholder="Search by name" defaultValue={name} />
        </div>
        <div className="field">
          <label htmlFor="forms-status">Status</label>
          <select id="forms-status" value={status} onChange={(e) => { setCursors([]); setStatus(e.target.value); }}>
            <option value="">Any status</option>
            {STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        </div>
        <button type="submit" className="btn secondary">Search</button>
      </form>
      <section className="section" aria-labelledby="forms-title">
        <h2 id="forms-title">Your forms <span className="mode-tag">{mode}</span></h2>
        {error ? <ErrorNote onRetry={() => void fetchList()}>{error}</ErrorNote> : null}
        {!list && !error ? <Spinner label="Loading forms…" /> : null}
        {list && list.data.length === 0 ? (
          <Empty title={name || status ? 'No forms match' : 'No forms yet'}>
            <p>{name || status ? 'Try another name or status.' : 'Make one from a template: choose New form, fill in what you know, add who signs, and send it.'}</p>
          </Empty>
        ) : null}
        {list && list.data.length > 0 ? (
          <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="forms-title">
            <table className="table">
              <thead>
                <tr><th scope="col">Name</th><th scope="col">Status</th><th scope="col" className="hide-sm">Recipients</th><th scope="col" className="hide-sm">Created</th></tr>
              </thead>
              <tbody>
                {list.data.map((f) => (
                  <tr key={f.id}>
                    <td><Link to={`/dashboard/forms/${f.id}`} className="strong-link">{f.name}</Link><div className="muted small"><code className="id">{f.id}</code></div></td>
                    <td><StatusTag status={f.status} /></td>
                    <td className="hide-sm">{f.recipients.length === 0 ? <span className="muted">None yet</span> : f.recipients.map((r) => r.name || r.email || r.phone).join(', ')}</td>
                    <td className="hide-sm">{formatDateTime(f.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <div className="pager">
          {cursors.length > 0 ? <button type="button" className="btn secondary small" onClick={() => setCursors((c) => c.slice(0, -1))}>Newer</button> : null}
          {list?.has_more ? <button type="button" className="btn secondary small" onClick={() => setCursors((c) => [...c, list.data.at(-1)!.id])}>Older</button> : null}
        </div>
      </section>
    </>
  );
}
