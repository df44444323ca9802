import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { api, ApiError, errorMessage, rememberSession, type ChallengeView, type SessionView } from '../api';
import { Logo } from '../ui/Logo';
import { TextInput } from './AuthPage';
import { EnrolTwoFactor } from './EnrolTwoFactor';

// The second step of signing in (issue 39): a code from the authenticator app (or a recovery code),
// or, when the account requires two-factor sign-in and the user has none yet, setting it up. Until
// then the session the password made can do nothing else.

export function TwoFactorStep({ challenge, onSignedIn, onCancel }: { challenge: ChallengeView; onSignedIn: (s: SessionView) => void; onCancel: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    rememberSession(challenge);
    document.title = `${challenge.step === 'code' ? 'Two-factor sign-in' : 'Set up two-factor sign-in'} · Formsign`;
    heading.current?.focus({ preventScroll: true });
  }, [challenge]);
  const cancel = async () => {
    await api('POST', '/logout').catch(() => undefined);
    rememberSession(null);
    onCancel();
  };
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="auth-brand"><Logo /><span>Formsign</span></div>
        {challenge.step === 'code' ? (
          <CodeForm heading={heading} onSignedIn={onSignedIn} />
        ) : (
          <>
            <h1 ref={heading} tabIndex={-1}>Set up two-factor sign-in</h1>
            <p className="muted">Your account requires a code from an authenticator app at each sign-in. Set it up now to continue.</p>
            <EnrolTwoFactor onEnrolled={onSignedIn} />
          </>
        )}
        <p className="auth-switch"><button type="button" className="link-button" onClick={() => void cancel()}>Cancel and sign out</button></p>
      </div>
    </main>
  );
}

function CodeForm({ heading, onSignedIn }: { heading: RefObject<HTMLHeadingElement | null>; onSignedIn: (s: SessionView) => void }) {
  const [recovery, setRecovery] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; param?: string | undefined } | null>(null);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await api<SessionView>('POST', '/two-factor/verify', recovery ? { recovery_code: data.get('recovery_code') } : { code: data.get('code') }));
    } catch (err) {
      setError({ message: errorMessage(err), param: err instanceof ApiError ? err.param : undefined });
      setBusy(false);
    }
  };
  const param = recovery ? 'recovery_code' : 'code';
  return (
    <>
      <h1 ref={heading} tabIndex={-1}>Two-factor sign-in</h1>
      <p className="muted">{recovery ? 'Enter one of the recovery codes you saved when you set up two-factor sign-in. Each works once.' : 'Enter the 6-digit code your authenticator app shows for Formsign.'}</p>
      <form onSubmit={(e) => void submit(e)} noValidate key={param}>
        {recovery
          ? <TextInput name="recovery_code" label="Recovery code" autoComplete="off" error={error?.param === param ? error.message : undefined} />
          : <TextInput name="code" label="Code" autoComplete="one-time-code" inputMode="numeric" error={error?.param === param ? error.message : undefined} />}
        {error && error.param !== param ? <div className="note error" role="alert">{error.message}</div> : null}
        <button type="submit" className="btn primary block" disabled={busy}>{busy ? 'Checking…' : 'Verify and sign in'}</button>
      </form>
      <p className="auth-help">
        <button type="button" className="link-button" onClick={() => { setRecovery(!recovery); setError(null); }}>{recovery ? 'Use a code from the app' : 'Use a recovery code'}</button>
      </p>
    </>
  );
}
