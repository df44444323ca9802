import { parseArgs } from 'node:util';
import type { Deps } from '../deps.js';
import { addSsoDomain, removeSsoDomain, setSignInPolicy, signInPolicy } from '../domain/sso/sso-domains.js';
import { resetTwoFactor } from '../domain/users/two-factor.js';
import { print, UsageError } from './output.js';

type Handler = (deps: Deps, args: string[], json: boolean) => Promise<void>;

function onOff(value: string | undefined, flag: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== 'on' && value !== 'off') throw new UsageError(`${flag} must be on or off`);
  return value === 'on';
}

const describe = (p: { account_id: string; sso_domains: string[]; sso_required: boolean; require_2fa: boolean; sso_configured: boolean }) =>
  [
    `Account ${p.account_id}: single sign-on for ${p.sso_domains.length ? p.sso_domains.join(', ') : 'no domain'}${p.sso_configured ? '' : ' (no OIDC provider configured on this server)'}.`,
    `  passwords: ${p.sso_required ? 'off (single sign-on required)' : 'on'}; two-factor sign-in: ${p.require_2fa ? 'required' : 'optional'} for password users.`,
  ].join('\n');

/** Single sign-on domains and the account's sign-in policy (issue 39, CONTRACT.md Part E). */
export const SIGN_IN_COMMANDS: Record<string, Handler> = {
  async 'accounts sso-domain'(deps, args, json) {
    const { positionals } = parseArgs({ args, options: { json: { type: 'boolean' } }, allowPositionals: true, strict: true });
    const [action, id, domain] = positionals;
    const usage = 'usage: accounts sso-domain add|remove ACCOUNT_ID DOMAIN, or accounts sso-domain list ACCOUNT_ID';
    if (action === 'list' && id && positionals.length === 2) {
      const policy = await signInPolicy(deps.domain, id);
      print(json, policy, () => describe(policy));
      return;
    }
    if ((action !== 'add' && action !== 'remove') || !id || !domain || positionals.length !== 3) throw new UsageError(usage);
    const claimed = action === 'add' ? await addSsoDomain(deps.domain, id, domain) : await removeSsoDomain(deps.domain, id, domain);
    print(json, claimed, () =>
      action === 'add'
        ? `Account ${id} claims ${claimed.domain}: addresses @${claimed.domain} sign in through the OpenID provider, and are made users (senders) at their first sign-in.`
        : `Account ${id} no longer claims ${claimed.domain}.`,
    );
  },
  async 'accounts set-sign-in'(deps, args, json) {
    const { values, positionals } = parseArgs({ args, options: { json: { type: 'boolean' }, 'sso-required': { type: 'string' }, 'require-2fa': { type: 'string' } }, allowPositionals: true, strict: true });
    const [id] = positionals;
    const ssoRequired = onOff(values['sso-required'], '--sso-required');
    const require2fa = onOff(values['require-2fa'], '--require-2fa');
    if (!id || positionals.length !== 1 || (ssoRequired === undefined && require2fa === undefined)) throw new UsageError('usage: accounts set-sign-in ACCOUNT_ID [--sso-required on|off] [--require-2fa on|off]');
    const policy = await setSignInPolicy(deps.domain, id, { ...(ssoRequired === undefined ? {} : { sso_required: ssoRequired }), ...(require2fa === undefined ? {} : { require_2fa: require2fa }) });
    print(json, policy, () => describe(policy));
  },
  async 'users reset-2fa'(deps, args, json) {
    const { values } = parseArgs({ args, options: { json: { type: 'boolean' }, email: { type: 'string' } }, allowPositionals: false, strict: true });
    if (!values.email) throw new UsageError('--email is required');
    const user = await resetTwoFactor(deps.domain, values.email);
    print(json, user, () => `Two-factor sign-in is off for <${user.email}> and their sessions ended; they can set it up again after signing in.`);
  },
};

export const SIGN_IN_USAGE = `  accounts sso-domain add|remove ACCOUNT_ID DOMAIN
                                          claim (or release) an e-mail domain for single sign-on
  accounts sso-domain list ACCOUNT_ID     the account's domains and sign-in policy
  accounts set-sign-in ACCOUNT_ID [--sso-required on|off] [--require-2fa on|off]
  users reset-2fa --email E               turn off a user's two-factor sign-in (a lost phone and codes)`;
