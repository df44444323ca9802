import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage, getIfChanged, type DevMessage } from '../api';
import { useApp } from '../mode';
import { usePoll } from '../poll';
import { Link } from '../router';
import { Empty, ErrorNote, formatDateTime, PageTitle, Spinner } from '../ui/ui';
import { StatusTag } from './status';

// The dev outbox: without an SMTP server or SMS gateway, the messages Formsign would have sent stay
// here, newest first, with their signing links. An e-mail is shown as sent, in a sandboxed frame (no
// script, no same-origin); an SMS as its text. Only this account's messages of the current mode.

const KIND: Record<DevMessage['kind'], string> = {
  invite: 'An invitation to sign.',
  auth_code: 'A one-time code a signer asked for, to confirm who they are.',
  reminder: 'A reminder to sign.',
  resume_link: 'The signing link again, which a signer asked for with "Finish later".',
  void_notice: 'A notice to a signer: the form was voided.',
  completed_copy: 'The signed copy, sent to a signer.',
  notice_completed: 'A notice to the account: the form is signed.',
  notice_declined: 'A notice to the account: a signer declined.',
  notice_viewed: 'A notice to the account: a signer opened the form.',
  notice_reassigned: 'A notice to the account: a signer passed the form to someone else.',
  sign_in_link: 'A one-time sign-in link a dashboard user asked for on the sign-in page.',
  password_reset: 'A one-time link to set a new password ("Forgot password?" on the sign-in page).',
  member_invitation: 'An invitation to join this account\'s dashboard as a member (Settings → Members).',
};

type Box = { data: DevMessage[]; channels: { email: boolean; sms: boolean } };

export function OutboxPage() {
  const { mode } = useApp();
  const [box, setBox] = useState<Box | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [none, setNone] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  const etag = useRef<string | null>(null);
  useEffect(() => {
    document.title = 'Dev outbox · Formsign';
    etag.current = null;
  }, [mode]);
  const load = useCallback(async () => {
    try {
      const fresh = await getIfChanged<Box>(`/${mode}/outbox`, etag);
      if (fresh) setBox(fresh);
      setError(null);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) setNone(true);
      else setError(errorMessage(err));
    }
  }, [mode]);
  usePoll(load, 3000, [load]);

  if (none) {
    return (
      <>
        <PageTitle>Dev outbox</PageTitle>
        <Empty title="No dev outbox on this server"><p>This server sends its e-mail through SMTP and its SMS through a gateway, so no messages are kept here.</p></Empty>
      </>
    );
  }
  return (
    <>
      <PageTitle>Dev outbox</PageTitle>
      <p className="lead">This server has no {box && !box.channels.email ? 'SMS gateway' : box && !box.channels.sms ? 'SMTP server' : 'SMTP server or SMS gateway'}, so the messages it would send stay here. Follow a signing link to sign as the recipient.</p>
      {error ? <ErrorNote onRetry={() => void load()}>{error}</ErrorNote> : null}
      {!box && !error ? <Spinner label="Loading messages…" /> : null}
      {box && box.data.length === 0 ? <Empty title="No messages yet"><p>Send a form (<Link to="/dashboard/forms/new">New form</Link>) and its messages appear here.</p></Empty> : null}
      <ul className="outbox">
        {box?.data.map((m) => (
          <li key={m.id} className="card message">
            <div className="message-head">
              <span className="mode-tag">{m.channel === 'sms' ? 'SMS' : 'E-mail'}</span>
              <strong>{m.subject ?? m.text.slice(0, 80)}</strong>
              <StatusTag status={m.status} />
            </div>
            <p className="small">To {m.to} · {formatDateTime(m.created_at)}{m.form_id ? <> · <Link to={`/dashboard/forms/${m.form_id}`}>the form</Link></> : null}</p>
            {m.signing_url ? <p className="signing-link"><a href={m.signing_url} target="_blank" rel="noopener">Open the signing link</a> <code className="small">{m.signing_url}</code></p> : <p className="muted small">{KIND[m.kind]}</p>}
            {m.error ? <p className="field-error">{m.error}</p> : null}
            {m.channel === 'sms' ? <pre className="sms">{m.text}</pre> : (
              <>
                <button type="button" className="btn ghost small" aria-expanded={open === m.id} onClick={() => setOpen(open === m.id ? null : m.id)}>{open === m.id ? 'Hide the e-mail' : 'Show the e-mail'}</button>
                {open === m.id ? (m.has_html ? <iframe className="mail-frame" title={`E-mail to ${m.to}`} sandbox="allow-popups allow-popups-to-escape-sandbox" src={`/dashboard/api/${mode}/outbox/${m.id}/html`} /> : <pre className="sms">{m.text}</pre>) : null}
              </>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
