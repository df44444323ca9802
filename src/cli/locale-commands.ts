import { parseArgs } from 'node:util';
import type { Deps } from '../deps.js';
import { setAccountLocale } from '../domain/accounts/set-account-locale.js';
import { print, UsageError } from './output.js';

type Handler = (deps: Deps, args: string[], json: boolean) => Promise<void>;

/** The signers' default language of an account (CONTRACT.md Part D). */
export const LOCALE_COMMANDS: Record<string, Handler> = {
  async 'accounts set-locale'(deps, args, json) {
    const { positionals } = parseArgs({ args, options: { json: { type: 'boolean' } }, allowPositionals: true, strict: true });
    const [id, locale] = positionals;
    if (!id || !locale || positionals.length > 2) throw new UsageError('usage: accounts set-locale ACCOUNT_ID LOCALE|default');
    const account = await setAccountLocale(deps.domain, id, locale);
    print(json, account, () =>
      account.locale === null
        ? `Account ${account.id}: signers read their own language, else English.`
        : `Account ${account.id}: signers whose recipient and browser name no language we have read ${account.locale}.`,
    );
  },
};

export const LOCALE_USAGE = '  accounts set-locale ACCOUNT_ID LOCALE|default   signers\' default language (BCP 47, e.g. de, pt-BR)';
