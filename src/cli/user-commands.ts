import { parseArgs } from 'node:util';
import type { Deps } from '../deps.js';
import { createLoginLink, createUser, LOGIN_LINK_HOURS } from '../domain/users/manage-users.js';
import { print, UsageError } from './output.js';

type Handler = (deps: Deps, args: string[], json: boolean) => Promise<void>;

function flags(args: string[]): { account?: string; email?: string } {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' }, account: { type: 'string' }, email: { type: 'string' } }, allowPositionals: false, strict: true });
  return values;
}

function need(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required`);
  return value;
}

/** Dashboard users (CONTRACT.md Part C): make one for an account, and give one a one-time sign-in link. */
export const USER_COMMANDS: Record<string, Handler> = {
  async 'users create'(deps, args, json) {
    const v = flags(args);
    const user = await createUser(deps.domain, { accountId: need(v.account, '--account'), email: need(v.email, '--email') });
    const link = await createLoginLink(deps.domain, user.email);
    print(json, { ...user, login_link: link }, () =>
      `Created user ${user.id} <${user.email}> for ${user.account_id}.\nOne-time sign-in link (works once, for ${LOGIN_LINK_HOURS} hours):\n  ${link.url}`,
    );
  },
  async 'users login-link'(deps, args, json) {
    const v = flags(args);
    const link = await createLoginLink(deps.domain, need(v.email, '--email'));
    print(json, link, () => `One-time sign-in link for <${link.email}> (works once, until ${link.expires_at}):\n  ${link.url}`);
  },
};

export const USER_USAGE = `  users create --account ID --email E     a dashboard user, printed with a one-time sign-in link
  users login-link --email E              a one-time dashboard sign-in link`;
