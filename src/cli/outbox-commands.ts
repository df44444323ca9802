import { parseArgs } from 'node:util';
import type { JobStatus } from '../db/tables.js';
import { listMessages } from '../db/repositories/messages.js';
import type { Deps } from '../deps.js';
import { AppError } from '../domain/errors.js';
import { JOB_STATUSES, operatorJobs, retryJobNow } from '../outbox/operator.js';
import { print, UsageError } from './output.js';
import { runWorker } from './worker.js';

type Handler = (deps: Deps, args: string[], json: boolean) => Promise<void>;

function parse(args: string[], withStatus: boolean) {
  const { values, positionals } = parseArgs({
    args,
    options: { json: { type: 'boolean' }, limit: { type: 'string' }, ...(withStatus ? { status: { type: 'string' as const } } : {}) },
    allowPositionals: true,
    strict: true,
  });
  const v = values as { limit?: string; status?: string };
  const limit = v.limit === undefined ? 50 : Number(v.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit must be a whole number from 1 to 1000');
  if (v.status !== undefined && !JOB_STATUSES.includes(v.status as JobStatus)) throw new UsageError(`--status must be one of ${JOB_STATUSES.join(', ')}`);
  return { limit, status: v.status as JobStatus | undefined, positionals };
}

const LINK = /https?:\/\/\S+/;

/** The job worker and the operator's view of its queue and of the dev outbox (CONTRACT.md Part C). */
export const OUTBOX_COMMANDS: Record<string, Handler> = {
  worker: runWorker,
  async 'outbox list'(deps, args, json) {
    const { limit, status } = parse(args, true);
    const jobs = await operatorJobs(deps.database.db, { status, limit });
    print(json, { object: 'list', data: jobs }, () =>
      jobs.length === 0
        ? `No ${status ?? ''} jobs.`.replace('  ', ' ')
        : jobs.map((j) => `${j.id}  ${j.kind}  ${j.status}  attempts ${j.attempts}  due ${j.run_at}${j.last_error ? `\n    last error: ${j.last_error}` : ''}`).join('\n'),
    );
  },
  async 'outbox retry'(deps, args, json) {
    const { positionals } = parse(args, false);
    const id = positionals[0];
    if (!id) throw new UsageError('usage: outbox retry JOB_ID');
    const r = await retryJobNow(deps.domain, id);
    if (!r.ok && r.reason === 'not_found') throw new AppError('resource_not_found', `No job has the id ${id}.`);
    if (!r.ok) throw new AppError('parameter_invalid', `Job ${id} is ${r.status}; only failed or dead jobs can be retried.`);
    print(json, r.job, () => `Job ${r.job.id} (${r.job.kind}) is due now with a fresh set of attempts.`);
  },
  async 'outbox messages'(deps, args, json) {
    const { limit } = parse(args, false);
    const rows = await listMessages(deps.database.db, { limit });
    const data = rows.map((m) => ({
      object: 'message',
      id: m.id,
      kind: m.kind,
      channel: m.channel,
      to: m.to_address,
      subject: m.subject,
      text: m.text,
      link: LINK.exec(m.text)?.[0] ?? null,
      attachment: m.attachment_name,
      status: m.status,
      transport: m.transport,
      error: m.error,
      form_id: m.form_id,
      recipient_id: m.recipient_id,
      created_at: m.created_at,
      delivered_at: m.delivered_at,
    }));
    print(json, { object: 'list', data }, () =>
      data.length === 0
        ? 'No messages.'
        : data.map((m) => `${m.created_at}  ${m.kind} ${m.channel} to ${m.to}  [${m.status}${m.transport ? ` via ${m.transport}` : ''}]\n  ${m.subject ?? m.text}\n  ${m.attachment ? `attached: ${m.attachment}` : (m.link ?? '')}`).join('\n\n'),
    );
  },
};

export const OUTBOX_USAGE = `  worker                                  run the job worker alone (servers with WORKER=off)
  outbox list [--status pending|running|done|failed|dead] [--limit N]
  outbox retry JOB_ID                     a failed or dead job runs again now
  outbox messages [--limit N]             the dev outbox: e-mails and SMS as sent`;
