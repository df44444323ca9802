import { useEffect, useState, type ReactNode } from 'react';
import { mayCall } from '../../src/lib/dashboard-permissions';
import { pageConfig } from './config';
import { useApp } from './mode';
import { Link } from './router';
import { Logo } from './ui/Logo';
import { logoPath, useBranding } from './branding';

// Each page with the API route it reads: a member sees only the pages their role may read (the
// permission table, src/lib/dashboard-permissions.ts).
const NAV = [
  ['/dashboard/forms', 'Forms', 'GET /:mode/forms'],
  ['/dashboard/bulk', 'Bulk send', 'POST /:mode/bulk-sends'],
  ['/dashboard/templates', 'Templates', 'GET /:mode/templates'],
  ['/dashboard/webhooks', 'Webhooks', 'GET /:mode/webhooks'],
  ['/dashboard/keys', 'API keys', 'GET /keys'],
  ['/dashboard/usage', 'Usage', 'GET /usage'],
  ['/dashboard/outbox', 'Outbox', 'GET /:mode/outbox'],
  ['/dashboard/settings', 'Settings', 'GET /session'],
] as const;

export function Shell({ path, wide, children }: { path: string; wide: boolean; children: ReactNode }) {
  const { session, mode, setMode, signOut } = useApp();
  // The account's brand (issue 42): its logo and name in the top bar, its accent everywhere.
  const brand = useBranding();
  const paid = session.account.plan === 'paid';
  const [upgradeHint, setUpgradeHint] = useState(false);
  // On a narrow screen the links fold behind a Menu button (every page stays one tap away, with a cue);
  // on a wide one the button is not shown and the links always are.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [path]);
  return (
    <div className={`shell mode-${mode}`}>
      <a className="skip" href="#main">Skip to content</a>
      <header className="topbar">
        <div className="topbar-inner">
          <Link to="/dashboard/templates" className="brand" aria-label={`${brand?.sender_name ?? 'Formsign'} dashboard home`}>
            {brand?.logo ? <img className="brand-logo" src={logoPath(brand.logo.url)} alt="" height={28} /> : <Logo />}
            <span>{brand?.sender_name ?? 'Formsign'}</span>
          </Link>
          <button type="button" className="btn small secondary menu-button" aria-expanded={menuOpen} aria-controls="dashboard-nav" onClick={() => setMenuOpen((o) => !o)}>
            <span aria-hidden="true">☰</span> Menu
          </button>
          <nav id="dashboard-nav" className={menuOpen ? 'nav open' : 'nav'} aria-label="Dashboard">
            {NAV.filter(([to, , route]) => (to !== '/dashboard/outbox' || pageConfig().devOutbox) && mayCall(session.user.role, route)).map(([to, label]) => (
              <Link key={to} to={to} aria-current={path === to || path.startsWith(`${to}/`) ? 'page' : undefined}>{label}</Link>
            ))}
            <a href="/docs">API reference</a>
          </nav>
          <div className="topbar-end">
            <div className="mode-switch" role="group" aria-label="Data mode">
              <button type="button" aria-pressed={mode === 'test'} onClick={() => setMode('test')}>Test</button>
              <button
                type="button"
                aria-pressed={mode === 'live'}
                className={paid ? undefined : 'locked'}
                aria-expanded={paid ? undefined : upgradeHint}
                aria-controls={paid ? undefined : 'upgrade-hint'}
                onClick={() => (paid ? setMode('live') : setUpgradeHint((v) => !v))}
              >
                Live
              </button>
            </div>
            <button type="button" className="btn small ghost" onClick={() => void signOut()}>Sign out</button>
          </div>
        </div>
        {!paid ? (
          <p id="upgrade-hint" className="upgrade-hint" hidden={!upgradeHint}>
            Live mode (real documents, <code>fk_live_</code> keys) needs a paid plan. Your account <strong>{session.account.name}</strong> is on the trial plan; ask your operator to run <code>formsign accounts set-plan {session.account.id} paid</code>.
          </p>
        ) : null}
        {mode === 'live' ? <p className="live-banner">Live mode: changes here affect real documents.</p> : null}
      </header>
      <main id="main" className={wide ? 'content wide' : 'content'}>{children}</main>
      <footer className="footer">
        <span>Signed in as {session.user.email} ({session.user.role}) · {session.account.name} ({session.account.plan} plan)</span>
        <a href="/docs">API reference</a>
      </footer>
    </div>
  );
}
