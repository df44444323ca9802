import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, ApiError, errorMessage, type SessionView } from '../api';
import { useApp } from '../mode';
import { formatDate, Notice, Spinner } from '../ui/ui';
import { TextInput } from './AuthPage';
import { EnrolTwoFactor } from './EnrolTwoFactor';

// Settings → Security (issue 39): the signed-in user's two-factor sign-in (set up with a QR code,
// turned off with a current code), and the account's sign-in policy: its single sign-on domains
// (claimed by the operator), "single sign-on required" and "two-factor sign-in required".

interface TwoFactor {
  object: 'two_factor';
  enabled: boolean;
  enabled_at: string | null;
  recovery_codes_left: number;
  required: boolean;
}

interface SignInPolicy {
  object: 'sign_in_policy';
  sso_domains: string[];
  sso_required: boolean;
  require_2fa: boolean;
  sso_configured: boolean;
}

export function TwoFactorSettings() {
  const { refreshSession, session } = useApp();
  const [status, setStatus] = useState<TwoFactor | null>(null);
  const [enrolling, setEnrolling] = useState(false);
  const [error, setError] = useState<{ message: string; param?: string | undefined } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(() => api<TwoFactor>('GET', '/two-factor').then(setStatus, (e: unknown) => setError({ message: errorMessage(e) })), []);
  useEffect(() => {
    void load();
  }, [load]);
  const enrolled = (s: SessionView) => {
    refreshSession(s);
    setEnrolling(false);
    setNotice('Two-factor sign-in is on: you will be asked for a code at each sign-in.');
    void load();
  };
  const disable = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      setStatus(await api<TwoFactor>('POST', '/two-factor/disable', { code: new FormData(e.currentTarget).get('code') }));
      setNotice('Two-factor sign-in is off.');
    } catch (err) {
      setError({ message: errorMessage(err), param: err instanceof ApiError ? err.param : undefined });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card narrow" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      {notice ? <Notice tone="success">{notice}</Notice> : null}
      {!status && !error ? <Spinner label="Loading…" /> : null}
      {status && !status.enabled && !enrolling ? (
        <>
          <p className="muted">Off. With it on, signing in with your password also asks for a code from an authenticator app on your phone.{status.required ? ' Your account requires it: you will be asked to set it up at your next sign-in.' : ''}</p>
          <button type="button" className="btn primary" onClick={() => { setNotice(null); setEnrolling(true); }}>Set up two-factor sign-in</button>
        </>
      ) : null}
      {status && !status.enabled && enrolling ? <EnrolTwoFactor onEnrolled={enrolled} askPassword={session.user.has_password} /> : null}
      {status?.enabled ? (
        <form onSubmit={(e) => void disable(e)} noValidate>
          <p className="muted">On since {formatDate(status.enabled_at)}. {status.recovery_codes_left} of 10 recovery codes left.</p>
          <TextInput name="code" label="Code from your app, to turn it off" autoComplete="one-time-code" inputMode="numeric" error={error?.param === 'code' ? error.message : undefined} />
          <button type="submit" className="btn secondary" disabled={busy}>{busy ? 'Checking…' : 'Turn off two-factor sign-in'}</button>
        </form>
      ) : null}
      {error && error.param !== 'code' ? <div className="note error" role="alert">{error.message}</div> : null}
    </section>
  );
}

export function SignInPolicySettings() {
  const [policy, setPolicy] = useState<SignInPolicy | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api<SignInPolicy>('GET', '/settings/sign-in').then(setPolicy, (e: unknown) => setError(errorMessage(e)));
  }, []);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    setDone(false);
    try {
      setPolicy(await api<SignInPolicy>('PUT', '/settings/sign-in', { require_2fa: data.get('require_2fa') === 'on', sso_required: data.get('sso_required') === 'on' }));
      setDone(true);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  const ssoPossible = policy ? policy.sso_configured && policy.sso_domains.length > 0 : false;
  return (
    <section className="card narrow" aria-labelledby="sign-in-policy-title">
      <h2 id="sign-in-policy-title">Sign-in policy</h2>
      {!policy && !error ? <Spinner label="Loading…" /> : null}
      {policy ? (
        <form onSubmit={(e) => void submit(e)} noValidate>
          <p className="muted">
            {policy.sso_domains.length > 0
              ? <>Single sign-on: addresses at {policy.sso_domains.map((d, i) => <span key={d}>{i > 0 ? ', ' : ''}<strong>{d}</strong></span>)} sign in through your identity provider, and get a user the first time.</>
              : <>Single sign-on: no e-mail domain claimed. Your operator claims one with <code>formsign accounts sso-domain add</code>.</>}
          </p>
          <label className="check"><input type="checkbox" name="require_2fa" defaultChecked={policy.require_2fa} /> Require two-factor sign-in of everyone who signs in with a password</label>
          <label className="check"><input type="checkbox" name="sso_required" defaultChecked={policy.sso_required} disabled={!ssoPossible && !policy.sso_required} /> Require single sign-on (passwords stop working)</label>
          {done ? <Notice tone="success">The sign-in policy is saved.</Notice> : null}
          {error ? <div className="note error" role="alert">{error}</div> : null}
          <button type="submit" className="btn primary" disabled={busy}>{busy ? 'Saving…' : 'Save sign-in policy'}</button>
        </form>
      ) : error ? <div className="note error" role="alert">{error}</div> : null}
    </section>
  );
}
