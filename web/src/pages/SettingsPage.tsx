import { useEffect, useState, type FormEvent } from 'react';
import { api, ApiError, errorMessage, type SessionView } from '../api';
import { useApp } from '../mode';
import { Notice, PageTitle } from '../ui/ui';
import { TextInput } from './AuthPage';
import { EmbedOriginsForm } from './EmbedOrigins';
import { LocaleSettingsForm } from './LocaleSettings';
import { RetentionSettingsForm } from './RetentionSettings';
import { NotifySettingsForm } from './NotifySettings';
import { mayCall } from '../../../src/lib/dashboard-permissions';
import { ROLE_SUMMARY } from '../../../src/lib/member-roles';
import { SettingsTabs } from './SettingsTabs';
import { SignInPolicySettings, TwoFactorSettings } from './SecuritySettings';
import { BrandingSettingsForm } from './BrandingSettings';

// The account at a glance and the user's password (a user signed in by link sets a first one here).
// The account's settings are shown to the roles that may change them (admins and owners).

export function SettingsPage() {
  const { session, refreshSession } = useApp();
  const [error, setError] = useState<{ message: string; param?: string | undefined } | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const admin = mayCall(session.user.role, 'PATCH /account');
  useEffect(() => {
    document.title = 'Settings · Formsign';
  }, []);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    setBusy(true);
    setError(null);
    setDone(false);
    try {
      const body = session.user.has_password ? { current_password: data.get('current_password'), new_password: data.get('new_password') } : { new_password: data.get('new_password') };
      refreshSession(await api<SessionView>('POST', '/password', body));
      form.reset();
      setDone(true);
    } catch (err) {
      setError({ message: errorMessage(err), param: err instanceof ApiError ? err.param : undefined });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <PageTitle>Settings</PageTitle>
      <SettingsTabs current="/dashboard/settings" />
      <section className="card" aria-labelledby="account-title">
        <h2 id="account-title">Account</h2>
        <dl className="facts">
          <dt>Account ID</dt><dd><code>{session.account.id}</code></dd>
          <dt>Plan</dt><dd>{session.account.plan === 'paid' ? 'Paid: live and test keys.' : <>Trial: test keys only. To upgrade to live mode, ask your operator to run <code>formsign accounts set-plan {session.account.id} paid</code>.</>} The calls of this month, and the monthly quota if the account has one, are under Usage.</dd>
          <dt>Signed in as</dt><dd>{session.user.email}</dd>
          <dt>Your role</dt><dd>{session.user.role}: {ROLE_SUMMARY[session.user.role]}.</dd>
        </dl>
        {admin ? <AccountForm /> : null}
      </section>
      {admin ? (
        <>
          <BrandingSettingsForm />
          <NotifySettingsForm />
          <LocaleSettingsForm />
          <RetentionSettingsForm />
          <EmbedOriginsForm />
        </>
      ) : null}
      <form className="card narrow" onSubmit={(e) => void submit(e)} aria-labelledby="password-title" noValidate>
        <h2 id="password-title">{session.user.has_password ? 'Change your password' : 'Set a password'}</h2>
        {!session.user.has_password ? <p className="muted">You signed in with a one-time link. Set a password to sign in with your e-mail address next time.</p> : null}
        {session.user.has_password ? <TextInput name="current_password" label="Current password" type="password" autoComplete="current-password" error={error?.param === 'current_password' ? error.message : undefined} /> : null}
        <TextInput name="new_password" label="New password" type="password" autoComplete="new-password" hint="At least 10 characters. Your other sessions are signed out." error={error?.param === 'new_password' ? error.message : undefined} />
        {error && !['current_password', 'new_password'].includes(error.param ?? '') ? <div className="note error" role="alert">{error.message}</div> : null}
        {done ? <Notice tone="success">Your password is saved.</Notice> : null}
        <button type="submit" className="btn primary" disabled={busy}>{busy ? 'Saving…' : 'Save password'}</button>
      </form>
      <TwoFactorSettings />
      {mayCall(session.user.role, 'PUT /settings/sign-in') ? <SignInPolicySettings /> : null}
    </>
  );
}

/**
 * The account's own settings: its name. (Notifications, the signers' default language and the
 * embedding origins have their own forms below.)
 */
function AccountForm() {
  const { session, refreshSession } = useApp();
  const [error, setError] = useState<{ message: string; param?: string | undefined } | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const name = new FormData(e.currentTarget).get('name');
    setBusy(true);
    setError(null);
    setDone(false);
    try {
      await api('PATCH', '/account', { name });
      refreshSession(await api<SessionView>('GET', '/session'));
      setDone(true);
    } catch (err) {
      setError({ message: errorMessage(err), param: err instanceof ApiError ? err.param : undefined });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="account-form" onSubmit={(e) => void submit(e)} noValidate aria-label="Account settings">
      <TextInput name="name" label="Account name" type="text" autoComplete="organization" defaultValue={session.account.name} hint="Shown to signers in the messages they get." error={error?.param === 'name' ? error.message : undefined} />
      {error && error.param !== 'name' ? <div className="note error" role="alert">{error.message}</div> : null}
      {done ? <Notice tone="success">The account is saved.</Notice> : null}
      <button type="submit" className="btn primary" disabled={busy}>{busy ? 'Saving…' : 'Save account'}</button>
    </form>
  );
}
