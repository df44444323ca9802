import { parseArgs } from 'node:util';
import type { Deps } from '../deps.js';
import { listActivity, type ActivityView } from '../domain/activity/read-activity.js';
import { print, UsageError } from './output.js';

type Handler = (deps: Deps, args: string[], json: boolean) => Promise<void>;

function line(a: ActivityView): string {
  const key = a.detail?.['api_key'];
  const who = a.actor.email ?? (a.kind === 'member.sign_in_failed' ? 'someone' : typeof key === 'string' ? `API key ${key}` : 'operator');
  const detail = a.detail ? `  ${Object.entries(a.detail).map(([k, v]) => `${k}=${String(v)}`).join(' ')}` : '';
  return `${a.created_at}  ${a.kind.padEnd(22)}  ${who}${a.target ? ` → ${a.target}` : ''}${a.ip ? `  from ${a.ip}` : ''}${detail}`;
}

/** An account's activity log (issue 39; CONTRACT Part E `accounts activity ID`), newest first. */
export const ACTIVITY_COMMANDS: Record<string, Handler> = {
  async 'accounts activity'(deps, args, json) {
    const { values, positionals } = parseArgs({
      args,
      options: { json: { type: 'boolean' }, kind: { type: 'string' }, member: { type: 'string' }, since: { type: 'string' }, until: { type: 'string' }, limit: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    const [id] = positionals;
    if (!id || positionals.length > 1) throw new UsageError(`usage: ${ACTIVITY_USAGE.trim()}`);
    const list = await listActivity(deps.domain, id, { kind: values.kind, member: values.member, since: values.since, until: values.until, limit: values.limit ?? '100' });
    print(json, list, () => (list.data.length === 0 ? `No activity for ${id}${values.kind || values.member || values.since || values.until ? ' matches these filters' : ''}.` : list.data.map(line).join('\n') + (list.has_more ? '\n… more: raise --limit (up to 200) or narrow with --since/--until' : '')));
  },
};

export const ACTIVITY_USAGE = '  accounts activity ACCOUNT_ID [--kind K] [--member USER_ID] [--since DAY] [--until DAY] [--limit N]\n                                          who did what in the dashboard, newest first (kept one year)';
