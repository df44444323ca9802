import { parseArgs } from 'node:util';
import type { Deps } from '../deps.js';
import { setRetention } from '../domain/forms/retention.js';
import { print, UsageError } from './output.js';

type Handler = (deps: Deps, args: string[], json: boolean) => Promise<void>;

/** How long an account keeps its finished forms (CONTRACT.md Part E, issue 40). */
export const RETENTION_COMMANDS: Record<string, Handler> = {
  async 'accounts set-retention'(deps, args, json) {
    const { positionals } = parseArgs({ args, options: { json: { type: 'boolean' } }, allowPositionals: true, strict: true });
    const [id, days] = positionals;
    if (!id || !days || positionals.length > 2) throw new UsageError('usage: accounts set-retention ACCOUNT_ID DAYS|off');
    const view = await setRetention(deps.domain, id, days);
    print(json, view, () =>
      view.retention_days === null
        ? `Account ${id}: finished forms are kept until deleted.`
        : `Account ${id}: finished forms are purged ${view.retention_days} day(s) after they finish, unless on legal hold.`,
    );
  },
};

export const RETENTION_USAGE = '  accounts set-retention ACCOUNT_ID DAYS|off      purge finished forms DAYS (1-3650) after they finish; off keeps them';
