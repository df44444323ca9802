import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { ACTIVITY_KINDS } from '../../../src/lib/activity-kinds';
import { api, errorMessage, type Activity, type List, type Members } from '../api';
import { Empty, ErrorNote, formatDateTime, PageTitle, Spinner } from '../ui/ui';
import { SettingsTabs } from './SettingsTabs';

// Settings → Activity (issue 39): who did what in the account and when (members, keys, webhooks,
// settings, sign-ins and failed sign-ins with the address they came from), newest first, kept a year;
// filtered by kind, member and days.

const PAGE = 50;

const KIND_LABELS: Readonly<Record<Activity['kind'], string>> = {
  'member.signed_in': 'Signed in',
  'member.sign_in_failed': 'Failed sign-in',
  'member.password_changed': 'Password changed',
  'member.invited': 'Member invited',
  'member.joined': 'Member joined',
  'member.role_changed': 'Role changed',
  'member.removed': 'Member removed',
  'invitation.revoked': 'Invitation withdrawn',
  'ownership.transferred': 'Ownership transferred',
  'key.created': 'API key created',
  'key.revoked': 'API key revoked',
  'webhook.created': 'Webhook created',
  'webhook.rotated': 'Webhook secret rotated',
  'webhook.deleted': 'Webhook deleted',
  'settings.changed': 'Settings changed',
  'two_factor.enabled': 'Two-factor sign-in on',
  'two_factor.disabled': 'Two-factor sign-in off',
  'two_factor.recovery_code_used': 'Recovery code used',
  'two_factor.failed': 'Wrong two-factor code',
};

interface Filters {
  kind: string;
  member: string;
  since: string;
  until: string;
}

function describe(a: Activity): string {
  if (!a.detail) return '';
  if (a.kind === 'member.role_changed') return `${String(a.detail['from'])} → ${String(a.detail['to'])}`;
  return Object.entries(a.detail)
    .filter(([, v]) => v !== null && v !== '')
    .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${String(v)}`)
    .join(', ');
}

/** Who, when no member did it: a wrong password's sender, an API key, or the operator at the command line. */
function who(a: Activity): string {
  if (a.kind === 'member.sign_in_failed') return 'Someone';
  const key = a.detail?.['api_key'];
  return typeof key === 'string' ? `API key ${key}` : 'Operator';
}

export function ActivityPage() {
  const [filters, setFilters] = useState<Filters>({ kind: '', member: '', since: '', until: '' });
  const [cursors, setCursors] = useState<string[]>([]);
  const [list, setList] = useState<List<Activity> | null>(null);
  const [members, setMembers] = useState<Members['data']>([]);
  const [error, setError] = useState<string | null>(null);

  const fetchList = useCallback(async () => {
    const q = new URLSearchParams({ limit: String(PAGE) });
    for (const [k, v] of Object.entries(filters)) if (v) q.set(k, v);
    const after = cursors.at(-1);
    if (after) q.set('starting_after', after);
    try {
      setList(await api<List<Activity>>('GET', `/activity?${q.toString()}`));
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  }, [filters, cursors]);
  useEffect(() => {
    document.title = 'Activity · Formsign';
    api<Members>('GET', '/members').then((m) => setMembers(m.data)).catch(() => undefined);
  }, []);
  useEffect(() => {
    void fetchList();
  }, [fetchList]);

  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const d = new FormData(e.currentTarget);
    setCursors([]);
    setFilters({ kind: String(d.get('kind') ?? ''), member: String(d.get('member') ?? ''), since: String(d.get('since') ?? ''), until: String(d.get('until') ?? '') });
  };

  return (
    <>
      <PageTitle>Settings</PageTitle>
      <SettingsTabs current="/dashboard/settings/activity" />
      <p className="lead">Who did what in this account: members, invitations, API keys, webhooks, settings, and sign-ins with the address they came from. Kept for one year.</p>
      <form className="filters" role="search" onSubmit={apply} aria-label="Filter the activity">
        <div className="field">
          <label htmlFor="activity-kind">What</label>
          <select id="activity-kind" name="kind" defaultValue={filters.kind}>
            <option value="">Anything</option>
            {ACTIVITY_KINDS.map((k) => <option key={k} value={k}>{KIND_LABELS[k]}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="activity-member">Member</label>
          <select id="activity-member" name="member" defaultValue={filters.member}>
            <option value="">Anyone</option>
            {members.map((m) => <option key={m.id} value={m.id}>{m.email}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="activity-since">From</label>
          <input id="activity-since" name="since" type="date" defaultValue={filters.since} />
        </div>
        <div className="field">
          <label htmlFor="activity-until">To</label>
          <input id="activity-until" name="until" type="date" defaultValue={filters.until} />
        </div>
        <button type="submit" className="btn secondary">Filter</button>
      </form>
      <section className="section" aria-labelledby="activity-title">
        <h2 id="activity-title">Activity</h2>
        {error ? <ErrorNote onRetry={() => void fetchList()}>{error}</ErrorNote> : null}
        {!list && !error ? <Spinner label="Loading activity…" /> : null}
        {list && list.data.length === 0 ? <Empty title="Nothing here"><p>{Object.values(filters).some(Boolean) ? 'No activity matches these filters.' : 'Nothing has happened in this account yet.'}</p></Empty> : null}
        {list && list.data.length > 0 ? (
          <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="activity-title">
            <table className="table activity-table stack-table">
              <thead>
                <tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">From</th></tr>
              </thead>
              <tbody>
                {list.data.map((a) => (
                  <tr key={a.id} data-kind={a.kind}>
                    <td>{formatDateTime(a.created_at)}</td>
                    <td data-label="Who">{a.actor.email ?? <span className="muted">{who(a)}</span>}</td>
                    <td><strong>{KIND_LABELS[a.kind]}</strong>{a.target ? <> · {a.target}</> : null}{describe(a) ? <div className="muted small">{describe(a)}</div> : null}</td>
                    <td data-label="From">{a.ip ?? <span className="muted">—</span>}</td>
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
