import { useEffect, useRef, useState } from 'react';
import { api, errorMessage, type ChallengeView, type SessionView, type SignInAnswer } from '../api';
import { Logo } from '../ui/Logo';
import { Spinner } from '../ui/ui';
import { TwoFactorStep } from './TwoFactorStep';

// A one-time sign-in link (`formsign users login-link`, the first start): the token is in the fragment,
// which no server or proxy logs; it is exchanged for a session once, then removed from the address.

export function LinkSignIn({ onSignedIn }: { onSignedIn: (s: SessionView) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<ChallengeView | null>(null);
  const once = useRef(false);
  useEffect(() => {
    if (once.current) return;
    once.current = true;
    const token = location.hash.slice(1);
    history.replaceState(null, '', '/dashboard/link');
    if (!token) {
      setError('This sign-in link has no token. Copy the whole link, or sign in with your password.');
      return;
    }
    // A user with two-factor sign-in still gives a code (the link is one factor).
    api<SignInAnswer>('POST', '/login-link', { token }).then((a) => (a.object === 'two_factor_challenge' ? setChallenge(a) : onSignedIn(a)), (err: unknown) => setError(errorMessage(err)));
  }, [onSignedIn]);
  if (challenge) return <TwoFactorStep challenge={challenge} onSignedIn={onSignedIn} onCancel={() => location.assign('/dashboard/login')} />;
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="auth-brand"><Logo /><span>Formsign</span></div>
        <h1>Signing you in</h1>
        {error ? (
          <>
            <div className="note error" role="alert">{error}</div>
            <a className="btn primary block" href="/dashboard/login">Go to sign in</a>
          </>
        ) : <Spinner label="Checking your sign-in link…" />}
      </div>
    </main>
  );
}
