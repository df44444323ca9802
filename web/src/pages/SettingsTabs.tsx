import { mayCall } from '../../../src/lib/dashboard-permissions';
import { useApp } from '../mode';
import { Link } from '../router';

// Settings' own pages (issue 39): the account, its members and its activity log; each shown only to
// a role the permission table lets read it.

const TABS = [
  { to: '/dashboard/settings', label: 'Account', route: 'GET /session' },
  { to: '/dashboard/settings/members', label: 'Members', route: 'GET /members' },
  { to: '/dashboard/settings/activity', label: 'Activity', route: 'GET /activity' },
] as const;

export function SettingsTabs({ current }: { current: string }) {
  const { session } = useApp();
  const tabs = TABS.filter((t) => mayCall(session.user.role, t.route));
  if (tabs.length < 2) return null;
  return (
    <nav className="settings-tabs" aria-label="Settings">
      {tabs.map((t) => <Link key={t.to} to={t.to} aria-current={current === t.to ? 'page' : undefined}>{t.label}</Link>)}
    </nav>
  );
}
