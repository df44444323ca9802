import { useEffect, useState, type FormEvent } from 'react';
import { api, ApiError, errorMessage, type SessionView } from '../api';
import { Spinner } from '../ui/ui';
import { TextInput } from './AuthPage';

// Setting up two-factor sign-in: scan the QR code (or type the secret), confirm with a code, then the
// ten recovery codes, shown this once. Used in Settings → Security and as a sign-in step.

interface Enrolment {
  object: 'two_factor_enrolment';
  secret: string;
  otpauth_url: string;
  qr_code: string;
}

interface Enrolled {
  object: 'two_factor_enrolled';
  recovery_codes: string[];
  session: SessionView;
}

/**
 * `askPassword`: from Settings, a user with a password confirms it first (the server asks for it: an
 * enrolment ends every other session, so a borrowed session must not set up its own authenticator).
 */
export function EnrolTwoFactor({ onEnrolled, askPassword = false }: { onEnrolled: (s: SessionView) => void; askPassword?: boolean }) {
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [enrolled, setEnrolled] = useState<Enrolled | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; param?: string | undefined } | null>(null);
  useEffect(() => {
    if (askPassword) return;
    api<Enrolment>('POST', '/two-factor/enrolment', {}).then(setEnrolment, (e: unknown) => setError({ message: errorMessage(e) }));
  }, [askPassword]);
  /** A form's submit: one request with the form's data, its error shown beside the box it names. */
  const submitting = (send: (form: FormData) => Promise<void>) => async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await send(new FormData(e.currentTarget));
    } catch (err) {
      setError({ message: errorMessage(err), param: err instanceof ApiError ? err.param : undefined });
    } finally {
      setBusy(false);
    }
  };
  const confirmPassword = submitting(async (form) => setEnrolment(await api<Enrolment>('POST', '/two-factor/enrolment', { password: form.get('password') })));
  const submit = submitting(async (form) => setEnrolled(await api<Enrolled>('POST', '/two-factor/enrolment/confirm', { code: form.get('code') })));
  if (enrolled) {
    return (
      <div className="two-factor-codes">
        <p className="note success" role="status">Two-factor sign-in is on. Your other sessions were signed out.</p>
        <h3 id="recovery-title">Your recovery codes</h3>
        <p className="hint">Each signs you in once without your phone. Save them somewhere safe now: they are not shown again.</p>
        <ul className="recovery-codes" aria-labelledby="recovery-title">
          {enrolled.recovery_codes.map((c) => <li key={c}><code>{c}</code></li>)}
        </ul>
        <button type="button" className="btn primary" onClick={() => onEnrolled(enrolled.session)}>I saved my recovery codes</button>
      </div>
    );
  }
  if (!enrolment && askPassword) {
    return (
      <form className="two-factor-password" onSubmit={(e) => void confirmPassword(e)} noValidate>
        <TextInput name="password" type="password" label="Your current password" autoComplete="current-password" error={error?.param === 'password' ? error.message : undefined} />
        {error && error.param !== 'password' ? <div className="note error" role="alert">{error.message}</div> : null}
        <button type="submit" className="btn primary" disabled={busy}>{busy ? 'Checking…' : 'Continue'}</button>
      </form>
    );
  }
  if (!enrolment) return error ? <div className="note error" role="alert">{error.message}</div> : <Spinner label="Making a new secret…" />;
  return (
    <form className="two-factor-enrol" onSubmit={(e) => void submit(e)} noValidate>
      <ol className="steps">
        <li>Scan this QR code with an authenticator app (such as Google Authenticator, Microsoft Authenticator, 1Password or Aegis).
          <img className="qr-code" src={enrolment.qr_code} alt="QR code to add Formsign to your authenticator app" width={180} height={180} />
          <span className="hint">Cannot scan it? Enter this key in the app: <code className="secret">{enrolment.secret.match(/.{1,4}/g)?.join(' ')}</code></span>
        </li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <TextInput name="code" label="Code from the app" autoComplete="one-time-code" inputMode="numeric" error={error?.param === 'code' ? error.message : undefined} />
      {error && error.param !== 'code' ? <div className="note error" role="alert">{error.message}</div> : null}
      <button type="submit" className="btn primary" disabled={busy}>{busy ? 'Checking…' : 'Turn on two-factor sign-in'}</button>
    </form>
  );
}
