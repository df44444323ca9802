import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, ApiError, errorMessage, type ChallengeView, type SessionView, type SignInAnswer } from '../api';
import { pageConfig } from '../config';
import { Link } from '../router';
import { Logo } from '../ui/Logo';
import { Notice } from '../ui/ui';
import { EmailLinkRequest, type LinkPurpose } from './EmailLink';
import { startSso } from './sso';
import { TwoFactorStep } from './TwoFactorStep';

// Sign in and sign up share one layout: a card with the form, errors next to the field they concern.

type Kind = 'login' | 'signup';

export function AuthPage({ kind, notice, onSignedIn }: { kind: Kind; notice?: string | undefined; onSignedIn: (s: SessionView) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; param?: string | undefined } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const form = useRef<HTMLFormElement>(null);
  // "Forgot password?" / "E-mail me a sign-in link": the same card asks for the address alone.
  const [byEmail, setByEmail] = useState<{ purpose: LinkPurpose; email: string } | null>(null);
  // Password right, second factor due (issue 39).
  const [challenge, setChallenge] = useState<ChallengeView | null>(null);
  const askByEmail = (purpose: LinkPurpose) => setByEmail({ purpose, email: String(form.current ? new FormData(form.current).get('email') ?? '' : '') });
  useEffect(() => {
    if (byEmail) return;
    setError(null);
    document.title = `${kind === 'login' ? 'Sign in' : 'Create your account'} · Formsign`;
    heading.current?.focus({ preventScroll: true });
  }, [kind, byEmail]);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const body = kind === 'login'
      ? { email: data.get('email'), password: data.get('password') }
      : { account_name: data.get('account_name'), email: data.get('email'), password: data.get('password') };
    setBusy(true);
    setError(null);
    // E-mail first: an address alone, in a domain claimed for single sign-on, goes to the provider.
    const email = data.get('email');
    if (kind === 'login' && pageConfig().sso && data.get('password') === '' && typeof email === 'string' && email.trim() !== '') {
      try {
        return await startSso(email);
      } catch {
        // Not a single sign-on address: the password is what is missing, as the sign-in says.
      }
    }
    try {
      const answer = await api<SignInAnswer>('POST', kind === 'login' ? '/login' : '/signup', body);
      if (answer.object === 'two_factor_challenge') {
        setChallenge(answer);
        setBusy(false);
      } else onSignedIn(answer);
    } catch (err) {
      // An account that signs in through its identity provider: off to it, the address as a hint.
      if (err instanceof ApiError && err.code === 'sso_required') return void sso(body.email);
      setError({ message: errorMessage(err), param: err instanceof ApiError ? err.param : undefined });
      setBusy(false);
    }
  };

  const sso = async (email: unknown) => {
    setBusy(true);
    setError(null);
    try {
      await startSso(typeof email === 'string' && email.trim() !== '' ? email : undefined);
    } catch (err) {
      setError({ message: errorMessage(err), param: err instanceof ApiError ? err.param : undefined });
      setBusy(false);
    }
  };

  if (challenge) return <TwoFactorStep challenge={challenge} onSignedIn={onSignedIn} onCancel={() => setChallenge(null)} />;

  const fieldError = (param: string) => (error?.param === param ? error.message : undefined);
  const formError = error && !['email', 'password', 'account_name'].includes(error.param ?? '') ? error.message : undefined;

  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="auth-brand"><Logo /><span>Formsign</span></div>
        {byEmail && kind === 'login' ? <EmailLinkRequest purpose={byEmail.purpose} email={byEmail.email} onBack={() => setByEmail(null)} /> : <>
        <h1 ref={heading} tabIndex={-1}>{kind === 'login' ? 'Sign in to your dashboard' : 'Create your account'}</h1>
        <p className="muted">{kind === 'login' ? 'Templates, API keys and the documents you send for signature.' : 'Start with test API keys, no card needed.'}</p>
        {notice ? <Notice>{notice}</Notice> : null}
        <form ref={form} onSubmit={(e) => void submit(e)} noValidate>
          {kind === 'signup' ? (
            <TextInput name="account_name" label="Company or project name" autoComplete="organization" error={fieldError('account_name')} />
          ) : null}
          <TextInput name="email" label="E-mail address" type="email" autoComplete="email" error={fieldError('email')} />
          <TextInput
            name="password"
            label="Password"
            type="password"
            autoComplete={kind === 'login' ? 'current-password' : 'new-password'}
            hint={kind === 'signup' ? 'At least 10 characters.' : undefined}
            error={fieldError('password')}
          />
          {kind === 'login' ? (
            <p className="auth-help">
              <button type="button" className="link-button" onClick={() => askByEmail('reset')}>Forgot password?</button>
              <button type="button" className="link-button" onClick={() => askByEmail('sign_in')}>E-mail me a sign-in link</button>
            </p>
          ) : null}
          {formError ? <div className="note error" role="alert">{formError}</div> : null}
          <button type="submit" className="btn primary block" disabled={busy}>{busy ? 'Please wait…' : kind === 'login' ? 'Sign in' : 'Create account'}</button>
          {kind === 'login' && pageConfig().sso ? (
            <>
              <p className="auth-or"><span>or</span></p>
              <button type="button" className="btn secondary block" disabled={busy} onClick={() => void sso(form.current ? new FormData(form.current).get('email') : undefined)}>Sign in with SSO</button>
            </>
          ) : null}
        </form>
        <p className="auth-switch">
          {kind === 'login' ? <>New to Formsign? <Link to="/dashboard/signup">Create an account</Link></> : <>Have an account? <Link to="/dashboard/login">Sign in</Link></>}
        </p>
        </>}
      </div>
      <p className="auth-foot"><a href="/docs">API reference</a> · <a href="/">About this server</a></p>
    </main>
  );
}

export function TextInput(props: { name: string; label: string; type?: string; autoComplete?: string; hint?: string | undefined; error?: string | undefined; defaultValue?: string; inputMode?: 'numeric' | 'text' | 'email' }) {
  const id = `f-${props.name}`;
  const described = [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${props.error ? ' invalid' : ''}`}>
      <label htmlFor={id}>{props.label}</label>
      <input id={id} name={props.name} type={props.type ?? 'text'} autoComplete={props.autoComplete} inputMode={props.inputMode} defaultValue={props.defaultValue} aria-invalid={props.error ? true : undefined} aria-describedby={described} required />
      {props.hint ? <p className="hint" id={`${id}-hint`}>{props.hint}</p> : null}
      {props.error ? <p className="field-error" id={`${id}-error`}>{props.error}</p> : null}
    </div>
  );
}
