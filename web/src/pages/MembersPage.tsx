import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { ROLE_SUMMARY, ROLES } from '../../../src/lib/member-roles';
import { mayCall } from '../../../src/lib/dashboard-permissions';
import { api, ApiError, errorMessage, type Member, type Members, type Role, type SessionView } from '../api';
import { useApp } from '../mode';
import { ErrorNote, formatDate, formatDateTime, Notice, PageTitle, Spinner } from '../ui/ui';
import { SettingsTabs } from './SettingsTabs';

// Settings → Members (issue 39): who is in the account, with which role, when they last signed in and
// whether they use two-factor sign-in; invitations by e-mail; role changes, removal and (for the
// owner) handing ownership on. The server decides who may do what; the page offers only that.

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; members: Members };

export function MembersPage() {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const fetchMembers = useCallback(async () => {
    try {
      setLoad({ state: 'ready', members: await api<Members>('GET', '/members') });
    } catch (err) {
      setLoad({ state: 'error', message: errorMessage(err) });
    }
  }, []);
  useEffect(() => {
    document.title = 'Members · Formsign';
    void fetchMembers();
  }, [fetchMembers]);

  return (
    <>
      <PageTitle>Settings</PageTitle>
      <SettingsTabs current="/dashboard/settings/members" />
      <InviteForm onInvited={() => void fetchMembers()} />
      <section className="section" aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        {load.state === 'loading' ? <Spinner label="Loading members…" /> : null}
        {load.state === 'error' ? <ErrorNote onRetry={() => void fetchMembers()}>{load.message}</ErrorNote> : null}
        {load.state === 'ready' ? <MemberTable members={load.members.data} onChanged={() => void fetchMembers()} /> : null}
      </section>
      {load.state === 'ready' && load.members.invitations.length > 0 ? <Invitations members={load.members} onChanged={() => void fetchMembers()} /> : null}
      <section className="section" aria-labelledby="roles-title">
        <h2 id="roles-title">Roles</h2>
        <dl className="facts">
          {ROLES.map((r) => <RoleFact key={r} role={r} />)}
        </dl>
      </section>
    </>
  );
}

function RoleFact({ role }: { role: Role }) {
  return <><dt>{role}</dt><dd>{ROLE_SUMMARY[role]}.</dd></>;
}

/** The roles this member may hand out: only an owner makes owners. */
function assignable(me: SessionView): readonly Role[] {
  return me.user.role === 'owner' ? ROLES : ROLES.filter((r) => r !== 'owner');
}

function InviteForm({ onInvited }: { onInvited: () => void }) {
  const { session } = useApp();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; param?: string | undefined } | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    setBusy(true);
    setError(null);
    setSent(null);
    try {
      const email = String(data.get('email') ?? '');
      await api('POST', '/members/invitations', { email, role: data.get('role') });
      setSent(email.trim().toLowerCase());
      form.reset();
      onInvited();
    } catch (err) {
      setError({ message: errorMessage(err), param: err instanceof ApiError ? err.param : undefined });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card invite-form" onSubmit={(e) => void submit(e)} aria-labelledby="invite-title" noValidate>
      <h2 id="invite-title">Invite a member</h2>
      <p className="muted">They get an e-mail with a link that works once, for 7 days, and choose a password to join.</p>
      <div className="invite-row">
        <div className={`field grow${error?.param === 'email' ? ' invalid' : ''}`}>
          <label htmlFor="invite-email">E-mail address</label>
          <input id="invite-email" name="email" type="email" autoComplete="off" required aria-invalid={error?.param === 'email' ? true : undefined} aria-describedby={error?.param === 'email' ? 'invite-email-error' : undefined} />
          {error?.param === 'email' ? <p className="field-error" id="invite-email-error">{error.message}</p> : null}
        </div>
        <div className="field">
          <label htmlFor="invite-role">Role</label>
          <select id="invite-role" name="role" defaultValue="sender">
            {assignable(session).map((r) => <option key={r} value={r}>{r}</option>)}
          </select>
        </div>
        <button type="submit" className="btn primary" disabled={busy}>{busy ? 'Inviting…' : 'Send invitation'}</button>
      </div>
      {error && error.param !== 'email' ? <div className="note error" role="alert">{error.message}</div> : null}
      {sent ? <Notice tone="success">Invitation sent to {sent}.</Notice> : null}
    </form>
  );
}

function MemberTable({ members, onChanged }: { members: Member[]; onChanged: () => void }) {
  const { session } = useApp();
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<{ id: string; action: 'remove' | 'transfer' } | null>(null);
  const owners = members.filter((m) => m.role === 'owner').length;
  const act = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
      setConfirming(null);
      onChanged();
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const mayManage = (m: Member) => m.role !== 'owner' || session.user.role === 'owner';
  return (
    <>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="members-title">
        <table className="table stack-table">
          <thead>
            <tr><th scope="col">Member</th><th scope="col">Role</th><th scope="col">Last sign-in</th><th scope="col">2FA</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr>
          </thead>
          <tbody>
            {members.map((m) => {
              const me = m.id === session.user.id;
              const lastOwner = m.role === 'owner' && owners <= 1;
              const mayTransfer = mayCall(session.user.role, 'POST /members/transfer-ownership') && !me && m.role !== 'owner';
              const mayRemove = mayManage(m) && !lastOwner && !me;
              return (
                <tr key={m.id}>
                  <td>{m.email}{me ? <span className="muted"> (you)</span> : null}<div className="muted small">Joined {formatDate(m.created_at)}</div></td>
                  <td data-label="Role">
                    {mayRemove ? (
                      <select aria-label={`Role of ${m.email}`} value={m.role} onChange={(e) => void act(() => api('PATCH', `/members/${m.id}`, { role: e.target.value }))}>
                        {assignable(session).map((r) => <option key={r} value={r}>{r}</option>)}
                      </select>
                    ) : <span className="role-tag">{m.role}</span>}
                  </td>
                  <td data-label="Last sign-in">{formatDateTime(m.last_sign_in_at)}</td>
                  <td data-label="2FA">{m.two_factor ? 'On' : 'Off'}</td>
                  <td className="actions-cell">
                    {confirming?.id === m.id ? (
                      <span className="confirm">
                        {confirming.action === 'remove'
                          ? <button type="button" className="btn small danger" onClick={() => void act(() => api('DELETE', `/members/${m.id}`))}>Remove now</button>
                          : <button type="button" className="btn small danger" onClick={() => void act(() => api('POST', '/members/transfer-ownership', { user_id: m.id }))}>Make owner, I become admin</button>}
                        <button type="button" className="btn small ghost" onClick={() => setConfirming(null)}>Cancel</button>
                      </span>
                    ) : mayTransfer || mayRemove ? (
                      <span className="row-actions">
                        {mayTransfer ? <button type="button" className="btn small secondary" onClick={() => setConfirming({ id: m.id, action: 'transfer' })} aria-label={`Transfer ownership to ${m.email}`}>Transfer ownership</button> : null}
                        {mayRemove ? <button type="button" className="btn small secondary" onClick={() => setConfirming({ id: m.id, action: 'remove' })} aria-label={`Remove ${m.email}`}>Remove</button> : null}
                      </span>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Invitations({ members, onChanged }: { members: Members; onChanged: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const withdraw = async (id: string) => {
    setError(null);
    try {
      await api('DELETE', `/members/invitations/${id}`);
      onChanged();
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <section className="section" aria-labelledby="invitations-title">
      <h2 id="invitations-title">Open invitations</h2>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="invitations-title">
        <table className="table stack-table">
          <thead>
            <tr><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Invited by</th><th scope="col">Expires</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr>
          </thead>
          <tbody>
            {members.invitations.map((i) => (
              <tr key={i.id}>
                <td>{i.email}</td>
                <td data-label="Role"><span className="role-tag">{i.role}</span></td>
                <td data-label="Invited by">{i.invited_by ?? <span className="muted">Operator</span>}</td>
                <td data-label="Expires">{formatDateTime(i.expires_at)}</td>
                <td className="actions-cell"><button type="button" className="btn small secondary" onClick={() => void withdraw(i.id)} aria-label={`Withdraw the invitation to ${i.email}`}>Withdraw</button></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
