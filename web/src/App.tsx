import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { api, ApiError, errorMessage, rememberSession, whenRefused, whenSignedOut, type Mode, type SessionView } from './api';
import { pageConfig } from './config';
import { AppContext, storedMode, storeMode, type AppState } from './mode';
import { AuthPage } from './pages/AuthPage';
import { KeysPage } from './pages/KeysPage';
import { LinkSignIn } from './pages/LinkSignIn';
import { ResetPassword } from './pages/EmailLink';
import { ActivityPage } from './pages/ActivityPage';
import { JoinPage } from './pages/JoinPage';
import { MembersPage } from './pages/MembersPage';
import { NotFound } from './pages/NotFound';
import { SettingsPage } from './pages/SettingsPage';
import { TemplatesPage } from './pages/TemplatesPage';
// Dashboard part 2 (issue 24).
import { FormDetail } from './pages/FormDetail';
import { FormsPage } from './pages/FormsPage';
import { GenerateForm } from './pages/GenerateForm';
import { NewForm } from './pages/NewForm';
import { OutboxPage } from './pages/OutboxPage';
import { UsagePage } from './pages/UsagePage';
import { WebhooksPage } from './pages/WebhooksPage';
import { BulkSendPage } from './pages/BulkSendPage';
import { navigate, usePath } from './router';
import { Shell } from './Shell';
import { ErrorNote, Spinner } from './ui/ui';

// The builder (and pdf.js with it) loads only when a template is opened: the first page stays small.
const Builder = lazy(() => import('./builder/Builder'));

type Auth = { state: 'loading' } | { state: 'error'; message: string } | { state: 'out'; notice?: string } | { state: 'in'; session: SessionView };

const PUBLIC = ['/dashboard/login', '/dashboard/signup'];
/** Where one-time links land (sign-in, reset, invitation): they work without a session. */
const ONE_TIME = ['/dashboard/link', '/dashboard/reset', '/dashboard/join'];
const NEXT = 'formsign.next';

function afterSignIn(): string {
  const next = sessionStorage.getItem(NEXT);
  sessionStorage.removeItem(NEXT);
  return next && next.startsWith('/dashboard/') ? next : '/dashboard/templates';
}

export function App() {
  const path = usePath();
  const [auth, setAuth] = useState<Auth>({ state: 'loading' });
  const [mode, setModeState] = useState<Mode>('test');

  const signedIn = useCallback((session: SessionView) => {
    rememberSession(session);
    setModeState(storedMode(session));
    setAuth({ state: 'in', session });
  }, []);

  const load = useCallback(async () => {
    setAuth({ state: 'loading' });
    try {
      signedIn(await api<SessionView>('GET', '/session'));
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) setAuth({ state: 'out' });
      else setAuth({ state: 'error', message: errorMessage(err) });
    }
  }, [signedIn]);

  useEffect(() => {
    if (ONE_TIME.includes(path)) return;
    if (!pageConfig().signedIn) {
      setAuth({ state: 'out' });
      return;
    }
    void load();
    // Only on first load: later navigation keeps the session it has.
  }, []);

  useEffect(() => {
    whenSignedOut(() => {
      rememberSession(null);
      setAuth({ state: 'out', notice: 'Your session ended. Sign in again to continue.' });
    });
  }, []);

  // A refusal may mean the member's role changed since the page loaded: read the session again, so
  // the navigation and the pages show what the role allows now.
  useEffect(() => {
    whenRefused(() => {
      api<SessionView>('GET', '/session').then((session) => {
        setAuth((a) => (a.state === 'in' && a.session.user.role === session.user.role ? a : { state: 'in', session }));
        rememberSession(session);
      }, () => undefined);
    });
  }, []);

  const app = useMemo<AppState | null>(() => {
    if (auth.state !== 'in') return null;
    return {
      session: auth.session,
      mode,
      setMode(m) {
        // A template belongs to one mode: switching while one is open goes back to the list first
        // (unless the person keeps unsaved changes there).
        if (location.pathname.startsWith('/dashboard/templates/')) {
          navigate('/dashboard/templates');
          if (location.pathname !== '/dashboard/templates') return;
        }
        // So does a form (it too belongs to one mode).
        if (/^\/dashboard\/forms\/form_/.test(location.pathname)) navigate('/dashboard/forms');
        storeMode(m);
        setModeState(m);
      },
      async signOut() {
        try {
          await api('POST', '/logout');
        } finally {
          rememberSession(null);
          setAuth({ state: 'out', notice: 'You are signed out.' });
          navigate('/dashboard/login', { replace: true });
        }
      },
      refreshSession: signedIn,
    };
  }, [auth, mode, signedIn]);

  // Addresses that mean "the start": the list of templates once signed in, the sign-in page before.
  useEffect(() => {
    if (auth.state === 'in' && (path === '/dashboard' || path === '/dashboard/' || PUBLIC.includes(path))) navigate('/dashboard/templates', { replace: true });
    if (auth.state === 'out' && !PUBLIC.includes(path) && !ONE_TIME.includes(path)) {
      // After signing in, the person lands where they were going (a template's link, say).
      if (/^\/dashboard\/(templates|keys|settings|forms|bulk|webhooks|usage|outbox)/.test(path)) sessionStorage.setItem(NEXT, path);
      navigate('/dashboard/login', { replace: true });
    }
  }, [auth.state, path]);

  if (path === '/dashboard/reset') return <ResetPassword onSignedIn={(s) => { signedIn(s); navigate('/dashboard/templates', { replace: true }); }} />;
  if (path === '/dashboard/join') return <JoinPage onSignedIn={(s) => { signedIn(s); navigate('/dashboard/templates', { replace: true }); }} />;
  if (path === '/dashboard/link') return <LinkSignIn onSignedIn={(s) => { signedIn(s); navigate('/dashboard/templates', { replace: true }); }} />;
  if (auth.state === 'loading') return <main className="center-page"><Spinner label="Opening the dashboard…" /></main>;
  if (auth.state === 'error') return <main className="center-page"><ErrorNote onRetry={() => void load()}>{auth.message}</ErrorNote></main>;
  if (auth.state === 'out' || !app) {
    return <AuthPage kind={path === '/dashboard/signup' ? 'signup' : 'login'} notice={auth.state === 'out' ? auth.notice : undefined} onSignedIn={(s) => { signedIn(s); navigate(afterSignIn(), { replace: true }); }} />;
  }

  const builder = /^\/dashboard\/templates\/([^/]+)$/.exec(path);
  let page;
  if (builder) page = <Suspense fallback={<Spinner label="Opening the builder…" />}><Builder key={`${builder[1]}-${mode}`} templateId={decodeURIComponent(builder[1]!)} /></Suspense>;
  else if (path === '/dashboard/templates' || path === '/dashboard' || path === '/dashboard/') page = <TemplatesPage key={mode} />;
  else if (path === '/dashboard/keys') page = <KeysPage />;
  else if (path === '/dashboard/forms') page = <FormsPage key={mode} />;
  else if (path === '/dashboard/forms/new') page = <NewForm key={mode} />;
  else if (path === '/dashboard/forms/generate') page = <GenerateForm key={mode} />;
  else if (/^\/dashboard\/forms\/[^/]+$/.test(path)) page = <FormDetail key={`${path}-${mode}`} formId={decodeURIComponent(path.slice('/dashboard/forms/'.length))} />;
  else if (path === '/dashboard/bulk') page = <BulkSendPage key={mode} />;
  else if (path === '/dashboard/webhooks') page = <WebhooksPage key={mode} />;
  else if (path === '/dashboard/usage') page = <UsagePage />;
  else if (path === '/dashboard/outbox') page = <OutboxPage key={mode} />;
  else if (path === '/dashboard/settings') page = <SettingsPage />;
  else if (path === '/dashboard/settings/members') page = <MembersPage />;
  else if (path === '/dashboard/settings/activity') page = <ActivityPage />;
  else page = <NotFound />;

  return (
    <AppContext.Provider value={app}>
      <Shell path={path} wide={Boolean(builder)}>{page}</Shell>
    </AppContext.Provider>
  );
}
