import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, ApiError, errorMessage, type ChallengeView, type Role, type SessionView, type SignInAnswer } from '../api';
import { Link } from '../router';
import { Logo } from '../ui/Logo';
import { Spinner } from '../ui/ui';
import { TextInput } from './AuthPage';
import { TwoFactorStep } from './TwoFactorStep';
import { ROLE_SUMMARY } from '../../../src/lib/member-roles';

// Where an invitation link lands (issue 39): the token is in the fragment, taken out of the address at
// once; the page says which account and role it is for, and joining sets the member's password.

interface Preview {
  object: 'invitation_preview';
  email: string;
  role: Role;
  account_name: string;
  expires_at: string;
}

type Load = { state: 'loading' } | { state: 'invalid'; message: string } | { state: 'ready'; preview: Preview };

export function JoinPage({ onSignedIn }: { onSignedIn: (s: SessionView) => void }) {
  const token = useRef<string | null>(null);
  if (token.current === null) token.current = location.hash.slice(1);
  const [load, setLoad] = useState<Load>(token.current ? { state: 'loading' } : { state: 'invalid', message: 'This link has no token. Copy the whole link from the e-mail.' });
  const [busy, setBusy] = useState(false);
  // An account requiring two-factor sign-in: the new member enrols before the dashboard opens.
  const [challenge, setChallenge] = useState<ChallengeView | null>(null);
  const [error, setError] = useState<{ message: string; param?: string | undefined } | null>(null);
  useEffect(() => {
    document.title = 'Join an account · Formsign';
    history.replaceState(null, '', '/dashboard/join');
    if (!token.current) return;
    api<Preview>('POST', '/invitation/lookup', { token: token.current })
      .then((preview) => setLoad({ state: 'ready', preview }))
      .catch((err: unknown) => setLoad({ state: 'invalid', message: errorMessage(err) }));
  }, []);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    if (data.get('password') !== data.get('confirm_password')) {
      setError({ message: 'The two passwords differ. Type the same password twice.', param: 'confirm_password' });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const answer = await api<SignInAnswer>('POST', '/invitation/accept', { token: token.current, password: data.get('password') });
      if (answer.object === 'two_factor_challenge') setChallenge(answer);
      else onSignedIn(answer);
    } catch (err) {
      setError({ message: errorMessage(err), param: err instanceof ApiError ? err.param : undefined });
      setBusy(false);
    }
  };
  if (challenge) return <TwoFactorStep challenge={challenge} onSignedIn={onSignedIn} onCancel={() => location.assign('/dashboard/login')} />;
  const fieldError = (param: string) => (error?.param === param ? error.message : undefined);

  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="auth-brand"><Logo /><span>Formsign</span></div>
        {load.state === 'loading' ? <Spinner label="Opening the invitation…" /> : null}
        {load.state === 'invalid' ? (
          <>
            <h1>This invitation does not work</h1>
            <div className="note error" role="alert">{load.message}</div>
          </>
        ) : null}
        {load.state === 'ready' ? (
          <>
            <h1>Join {load.preview.account_name}</h1>
            <p className="muted">You are invited as <strong>{load.preview.role}</strong>: {ROLE_SUMMARY[load.preview.role]}. Choose a password for <strong>{load.preview.email}</strong> to join.</p>
            <form onSubmit={(e) => void submit(e)} noValidate>
              <TextInput name="password" label="Password" type="password" autoComplete="new-password" hint="At least 10 characters." error={fieldError('password')} />
              <TextInput name="confirm_password" label="The same password again" type="password" autoComplete="new-password" error={fieldError('confirm_password')} />
              {error && !['password', 'confirm_password'].includes(error.param ?? '') ? <div className="note error" role="alert">{error.message}</div> : null}
              <button type="submit" className="btn primary block" disabled={busy}>{busy ? 'Please wait…' : 'Join and sign in'}</button>
            </form>
          </>
        ) : null}
        <p className="auth-switch"><Link to="/dashboard/login">Sign in instead</Link></p>
      </div>
    </main>
  );
}
