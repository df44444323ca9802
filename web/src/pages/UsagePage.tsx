import { useEffect, useState } from 'react';
import { api, errorMessage, type Usage } from '../api';
import { usePoll } from '../poll';
import { ErrorNote, PageTitle, Spinner } from '../ui/ui';

// The account's API usage (both modes together, as the quota counts): this month against the quota,
// calls and 429s per day for 30 days, and each endpoint's per-minute window as it stands now.

export function UsagePage() {
  const [usage, setUsage] = useState<Usage | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    document.title = 'Usage · Formsign';
  }, []);
  usePoll(async () => {
    try {
      setUsage(await api<Usage>('GET', '/usage'));
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  }, 10_000, []);
  if (!usage) return error ? <ErrorNote>{error}</ErrorNote> : <Spinner label="Loading usage…" />;
  const m = usage.monthly;
  const pct = m ? Math.min(100, Math.round((m.used / Math.max(1, m.limit)) * 100)) : 0;
  const max = Math.max(1, ...usage.days.map((d) => d.calls + d.limited));
  const total = usage.days.reduce((s, d) => s + d.calls, 0);
  const refused = usage.days.reduce((s, d) => s + d.limited, 0);
  return (
    <>
      <PageTitle>Usage</PageTitle>
      <p className="lead">API calls of this account, test and live together, as the monthly quota counts them. The dashboard's own changes count as the API calls they make; reading pages here does not.</p>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <section className="card" aria-labelledby="month-title">
        <h2 id="month-title">This month</h2>
        {m ? (
          <>
            <meter className="quota" min={0} max={m.limit} low={m.limit * 0.8} high={m.limit * 0.95} optimum={0} value={m.used} aria-labelledby="month-title" aria-describedby="month-words" />
            <p id="month-words"><strong>{m.used.toLocaleString()}</strong> of {m.limit.toLocaleString()} calls ({pct} %). The quota renews {new Date(m.reset * 1000).toLocaleDateString(undefined, { month: 'long', day: 'numeric', timeZone: 'UTC' })} (UTC).</p>
          </>
        ) : <p className="muted">This server runs without limits.</p>}
      </section>
      <section className="card" aria-labelledby="days-title">
        <h2 id="days-title">Last 30 days</h2>
        <p className="muted small">{total.toLocaleString()} calls and {refused.toLocaleString()} refused with 429 in 30 days (UTC days).</p>
        <div className="chart" role="img" aria-label={`Calls per day for 30 days, at most ${max} in a day`}>
          {usage.days.map((d) => (
            <div className="bar" key={d.day} title={`${d.day}: ${d.calls} calls, ${d.limited} refused`}>
              <span className="bar-limited" style={{ height: `${(d.limited / max) * 100}%` }} />
              <span className="bar-calls" style={{ height: `${(d.calls / max) * 100}%` }} />
            </div>
          ))}
        </div>
        <p className="chart-legend small"><span className="key calls" aria-hidden="true" /> calls <span className="key limited" aria-hidden="true" /> refused (429)</p>
        <details>
          <summary>The numbers, day by day</summary>
          <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="days-title">
            <table className="table">
              <thead><tr><th scope="col">Day</th><th scope="col">Calls</th><th scope="col">429s</th></tr></thead>
              <tbody>{[...usage.days].reverse().map((d) => <tr key={d.day}><td>{d.day}</td><td>{d.calls}</td><td>{d.limited}</td></tr>)}</tbody>
            </table>
          </div>
        </details>
      </section>
      {usage.windows ? (
        <section className="card" aria-labelledby="windows-title">
          <h2 id="windows-title">Per-minute windows</h2>
          <p className="muted small">Each endpoint allows this many requests per {usage.window_seconds} seconds (sliding); the remaining count is now.</p>
          <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="windows-title">
            <table className="table">
              <thead><tr><th scope="col">Endpoint</th><th scope="col">Limit</th><th scope="col">Remaining</th></tr></thead>
              <tbody>{usage.windows.map((w) => <tr key={w.endpoint}><td><code>{w.endpoint}</code></td><td>{w.limit}</td><td>{w.remaining}</td></tr>)}</tbody>
            </table>
          </div>
        </section>
      ) : null}
    </>
  );
}
