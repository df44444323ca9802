import { findActivityRow, listActivityRows } from '../../db/repositories/activity.js';
import { findAccount } from '../../db/repositories/accounts.js';
import type { ActivityRow } from '../../db/tables.js';
import { isActivityKind, type ActivityKind } from '../../lib/activity-kinds.js';
import type { DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import { cursorRefused, type ListView } from '../pagination.js';

export interface ActivityView {
  object: 'activity';
  id: string;
  kind: ActivityKind;
  /** The member who did it (null: the operator, or a sign-in attempt). */
  actor: { id: string | null; email: string | null };
  target: string | null;
  ip: string | null;
  detail: Record<string, unknown> | null;
  created_at: string;
}

export function presentActivity(r: ActivityRow): ActivityView {
  return { object: 'activity', id: r.id, kind: r.kind, actor: { id: r.actor_id, email: r.actor_email }, target: r.target, ip: r.ip, detail: r.detail ? (JSON.parse(r.detail) as Record<string, unknown>) : null, created_at: r.created_at };
}

/** The filters as the page and the CLI send them (strings); each checked here, once. */
export interface ActivityQuery {
  kind?: unknown;
  member?: unknown;
  /** A day (YYYY-MM-DD, from its start) or an RFC 3339 time. */
  since?: unknown;
  /** A day (YYYY-MM-DD, through its end) or an RFC 3339 time. */
  until?: unknown;
  limit?: unknown;
  starting_after?: unknown;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MAX_LIMIT = 200;

function time(value: unknown, param: 'since' | 'until'): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'string') {
    if (DAY.test(value)) {
      const start = Date.parse(`${value}T00:00:00.000Z`);
      if (Number.isFinite(start)) return new Date(param === 'since' ? start : start + 86_400_000).toISOString();
    } else if (/^\d{4}-\d{2}-\d{2}T/.test(value) && Number.isFinite(Date.parse(value))) {
      return new Date(value).toISOString();
    }
  }
  throw new AppError('parameter_invalid', `${param} must be a day (2026-12-31) or a time (2026-12-31T09:00:00Z).`, param);
}

/** An account's activity, newest first, filtered by kind, member and time. */
export async function listActivity(deps: Pick<DomainDeps, 'db'>, accountId: string, query: ActivityQuery): Promise<ListView<ActivityView>> {
  if (!(await findAccount(deps.db, accountId))) throw notFound('account', accountId, 'account');
  if (query.kind !== undefined && query.kind !== '' && !isActivityKind(query.kind)) throw new AppError('parameter_invalid', `kind must be one of the activity kinds (member.signed_in, key.created, …); '${String(query.kind).slice(0, 50)}' is not.`, 'kind');
  if (query.member !== undefined && typeof query.member !== 'string') throw new AppError('parameter_invalid', 'member must be a member\'s user id.', 'member');
  let limit = 50;
  if (query.limit !== undefined && query.limit !== '') {
    limit = Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new AppError('parameter_invalid', `limit must be a whole number from 1 to ${MAX_LIMIT}.`, 'limit');
  }
  let startingAfter: ActivityRow | undefined;
  if (typeof query.starting_after === 'string' && query.starting_after !== '') {
    startingAfter = await findActivityRow(deps.db, accountId, query.starting_after);
    if (!startingAfter) throw cursorRefused('starting_after', 'activity entry', query.starting_after);
  }
  const rows = await listActivityRows(deps.db, accountId, {
    kind: isActivityKind(query.kind) ? query.kind : undefined,
    actorId: typeof query.member === 'string' && query.member !== '' ? query.member : undefined,
    since: time(query.since, 'since'),
    until: time(query.until, 'until'),
    startingAfter,
  }, limit + 1);
  return { object: 'list', data: rows.slice(0, limit).map(presentActivity), has_more: rows.length > limit };
}
