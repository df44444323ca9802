import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, ApiError, errorMessage, type ChallengeView, type SessionView, type SignInAnswer } from '../api';
import { Link } from '../router';
import { Logo } from '../ui/Logo';
import { Notice } from '../ui/ui';
import { TextInput } from './AuthPage';
import { TwoFactorStep } from './TwoFactorStep';

// Signing in without the command line (issue 37): "E-mail me a sign-in link" and "Forgot password?"
// ask for a one-time link by e-mail (the server answers alike for any address); the reset link lands on
// ResetPassword, which sets a new password and signs in.

export type LinkPurpose = 'sign_in' | 'reset';

interface AccessEmail {
  object: 'access_email';
  message: string;
}

export function EmailLinkRequest({ purpose, email, onBack }: { purpose: LinkPurpose; email: string; onBack: () => void }) {
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<{ message: string; param?: string | undefined } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const reset = purpose === 'reset';
  useEffect(() => {
    document.title = `${reset ? 'Forgot password' : 'E-mail a sign-in link'} · Formsign`;
    heading.current?.focus({ preventScroll: true });
  }, [reset]);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setSent((await api<AccessEmail>('POST', '/access-email', { email: new FormData(e.currentTarget).get('email'), purpose })).message);
    } catch (err) {
      setError({ message: errorMessage(err), param: err instanceof ApiError ? err.param : undefined });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h1 ref={heading} tabIndex={-1}>{reset ? 'Forgot your password?' : 'E-mail me a sign-in link'}</h1>
      <p className="muted">{reset ? 'We e-mail you a link to choose a new password. It works once, for 30 minutes.' : 'We e-mail you a link that signs you in once, within 30 minutes. No password needed.'}</p>
      {sent ? <Notice tone="success"><span>{sent} Check your inbox (on a server without SMTP: the dev outbox, or <code>formsign outbox messages</code>).</span></Notice> : null}
      <form onSubmit={(e) => void submit(e)} noValidate>
        <TextInput name="email" label="E-mail address" type="email" autoComplete="email" defaultValue={email} error={error?.param === 'email' ? error.message : undefined} />
        {error && error.param !== 'email' ? <div className="note error" role="alert">{error.message}</div> : null}
        <button type="submit" className="btn primary block" disabled={busy}>{busy ? 'Please wait…' : sent ? 'Send it again' : reset ? 'E-mail me a reset link' : 'E-mail me a sign-in link'}</button>
      </form>
      <p className="auth-switch"><button type="button" className="link-button" onClick={onBack}>Back to sign in with a password</button></p>
    </>
  );
}

/** Where a reset link lands: the token is in the fragment, removed from the address at once. */
export function ResetPassword({ onSignedIn }: { onSignedIn: (s: SessionView) => void }) {
  const token = useRef<string | null>(null);
  if (token.current === null) token.current = location.hash.slice(1);
  const [busy, setBusy] = useState(false);
  const [challenge, setChallenge] = useState<ChallengeView | null>(null);
  const [error, setError] = useState<{ message: string; param?: string | undefined } | null>(token.current ? null : { message: 'This link has no token. Copy the whole link from the e-mail, or ask for a new one.' });
  useEffect(() => {
    document.title = 'Choose a new password · Formsign';
    history.replaceState(null, '', '/dashboard/reset');
  }, []);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    if (data.get('new_password') !== data.get('confirm_password')) {
      setError({ message: 'The two passwords differ. Type the same password twice.', param: 'confirm_password' });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const answer = await api<SignInAnswer>('POST', '/password-reset', { token: token.current, new_password: data.get('new_password') });
      // Two-factor sign-in still asks for its code after a reset (the link proves the mailbox only).
      if (answer.object === 'two_factor_challenge') setChallenge(answer);
      else onSignedIn(answer);
    } catch (err) {
      setError({ message: errorMessage(err), param: err instanceof ApiError ? err.param : undefined });
      setBusy(false);
    }
  };

  const fieldError = (param: string) => (error?.param === param ? error.message : undefined);
  if (challenge) return <TwoFactorStep challenge={challenge} onSignedIn={onSignedIn} onCancel={() => location.assign('/dashboard/login')} />;
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="auth-brand"><Logo /><span>Formsign</span></div>
        <h1>Choose a new password</h1>
        <p className="muted">Every other session of yours is signed out when you save it.</p>
        <form onSubmit={(e) => void submit(e)} noValidate>
          <TextInput name="new_password" label="New password" type="password" autoComplete="new-password" hint="At least 10 characters." error={fieldError('new_password')} />
          <TextInput name="confirm_password" label="The same password again" type="password" autoComplete="new-password" error={fieldError('confirm_password')} />
          {error && !['new_password', 'confirm_password'].includes(error.param ?? '') ? <div className="note error" role="alert">{error.message}</div> : null}
          <button type="submit" className="btn primary block" disabled={busy || !token.current}>{busy ? 'Please wait…' : 'Save and sign in'}</button>
        </form>
        <p className="auth-switch"><Link to="/dashboard/login">Back to sign in</Link></p>
      </div>
    </main>
  );
}
