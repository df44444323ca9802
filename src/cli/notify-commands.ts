import { parseArgs } from 'node:util';
import type { Deps } from '../deps.js';
import { setNotifySettings } from '../domain/accounts/notify-settings.js';
import { print, UsageError } from './output.js';

type Handler = (deps: Deps, args: string[], json: boolean) => Promise<void>;

const USAGE_LINE = 'usage: accounts set-notify ACCOUNT_ID EMAIL|none [--viewed on|off]';

/** The account's notification address (CONTRACT.md Part D: `accounts set-notify ID EMAIL`). */
export const NOTIFY_COMMANDS: Record<string, Handler> = {
  async 'accounts set-notify'(deps, args, json) {
    const { values, positionals } = parseArgs({ args, options: { json: { type: 'boolean' }, viewed: { type: 'string' } }, allowPositionals: true, strict: true });
    const [id, email] = positionals;
    if (!id || !email || positionals.length > 2) throw new UsageError(USAGE_LINE);
    const viewed = values.viewed;
    if (viewed !== undefined && viewed !== 'on' && viewed !== 'off') throw new UsageError(`--viewed must be on or off\n${USAGE_LINE}`);
    const s = await setNotifySettings(deps.domain, id, { notify_email: email === 'none' ? null : email, ...(viewed ? { notify_viewed: viewed === 'on' } : {}) });
    print(json, s, () =>
      s.notify_email
        ? `Account ${s.account_id}: notices go to ${s.notify_email} (completed with the PDF, declined${s.notify_viewed ? ', viewed' : ''}); replies to the account's messages go there too.`
        : `Account ${s.account_id}: no notification address; no notices are sent.`,
    );
  },
};

export const NOTIFY_USAGE = '  accounts set-notify ACCOUNT_ID EMAIL|none [--viewed on|off]   notices (completed, declined, viewed) and Reply-To';
