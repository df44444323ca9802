import { findAccount } from '../../db/repositories/accounts.js';
import { deleteSsoDomain, findSignInPolicy, findSsoDomain, insertSsoDomain, listSsoDomains, upsertSignInPolicy } from '../../db/repositories/sso.js';
import type { Db, Trx } from '../../db/handles.js';
import type { UserRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import type { DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';

// The e-mail domains an account claims for single sign-on, and its sign-in policy (issue 39):
// `sso_required` (no passwords for its users) and `require_2fa` (password users enrol TOTP). Only
// the operator claims a domain (`formsign accounts sso-domain add`): that is its verification, as
// nobody who merely holds an account can take the addresses of a domain they do not run.

export interface SsoDomainView {
  object: 'sso_domain';
  domain: string;
  account_id: string;
  created_at: string;
}

export interface SignInPolicyView {
  object: 'sign_in_policy';
  account_id: string;
  sso_domains: string[];
  sso_required: boolean;
  require_2fa: boolean;
  /** The server has an OpenID provider configured (OIDC_ISSUER_URL). */
  sso_configured: boolean;
}

// One DNS name of two labels or more (IDNs as their xn-- form), as e-mail addresses end.
const DOMAIN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function normalizeDomain(value: unknown, param = 'domain'): string {
  if (typeof value !== 'string' || value.trim() === '') throw new AppError('parameter_missing', 'Name the e-mail domain, such as example.com.', param);
  const domain = value.trim().toLowerCase().replace(/^@/, '').replace(/\.$/, '');
  if (!DOMAIN.test(domain)) throw new AppError('parameter_invalid', `${domain.slice(0, 100)} is not an e-mail domain: give one such as example.com.`, param);
  return domain;
}

/** The domain of a normalized e-mail address. */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1);
}

const view = (r: { domain: string; account_id: string; created_at: string }): SsoDomainView => ({ object: 'sso_domain', domain: r.domain, account_id: r.account_id, created_at: r.created_at });

export async function addSsoDomain(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>, accountId: string, raw: unknown): Promise<SsoDomainView> {
  const domain = normalizeDomain(raw);
  if (!(await findAccount(deps.db, accountId))) throw notFound('account', accountId, 'account');
  const existing = await findSsoDomain(deps.db, domain);
  if (existing) {
    if (existing.account_id === accountId) return view(existing);
    throw new AppError('parameter_invalid', `${domain} is claimed by account ${existing.account_id} already: a domain signs in to one account. Remove it there first.`, 'domain');
  }
  const row = { domain, account_id: accountId, created_at: isoNow(deps.clock) };
  if (!(await deps.transact((trx) => insertSsoDomain(trx, row)))) throw new AppError('parameter_invalid', `${domain} was claimed by another account meanwhile.`, 'domain');
  return view(row);
}

export async function removeSsoDomain(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>, accountId: string, raw: unknown): Promise<SsoDomainView> {
  const domain = normalizeDomain(raw);
  const existing = await findSsoDomain(deps.db, domain);
  if (!existing || existing.account_id !== accountId) throw new AppError('resource_not_found', `Account ${accountId} has not claimed ${domain}.`, 'domain');
  await deps.transact(async (trx) => {
    await deleteSsoDomain(trx, accountId, domain);
    // The last domain gone, nobody could sign in any more: passwords come back.
    if ((await listSsoDomains(trx, accountId)).length === 0) {
      const policy = await findSignInPolicy(trx, accountId);
      await upsertSignInPolicy(trx, { account_id: accountId, sso_required: 0, require_2fa: policy.require_2fa ? 1 : 0, updated_at: isoNow(deps.clock) });
    }
  });
  return view(existing);
}

export async function signInPolicy(deps: Pick<DomainDeps, 'db' | 'oidc'>, accountId: string): Promise<SignInPolicyView> {
  const account = await findAccount(deps.db, accountId);
  if (!account) throw notFound('account', accountId, 'account');
  const domains = await listSsoDomains(deps.db, accountId);
  const policy = await findSignInPolicy(deps.db, accountId);
  return { object: 'sign_in_policy', account_id: accountId, sso_domains: domains.map((d) => d.domain), ...policy, sso_configured: deps.oidc !== undefined };
}

function flag(value: unknown, param: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new AppError('parameter_invalid', `${param} must be true or false.`, param);
  return value;
}

/** Sets `sso_required` and/or `require_2fa`; requiring single sign-on needs a provider and a claimed domain. */
export async function setSignInPolicy(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'oidc'>, accountId: string, input: { sso_required?: unknown; require_2fa?: unknown }): Promise<SignInPolicyView> {
  const ssoRequired = flag(input.sso_required, 'sso_required');
  const require2fa = flag(input.require_2fa, 'require_2fa');
  const current = await signInPolicy(deps, accountId);
  if (ssoRequired && !current.sso_configured) throw new AppError('parameter_invalid', 'Single sign-on is not set up on this server (OIDC_ISSUER_URL): requiring it would leave nobody able to sign in.', 'sso_required');
  if (ssoRequired && current.sso_domains.length === 0) throw new AppError('parameter_invalid', `Account ${accountId} has claimed no e-mail domain: requiring single sign-on would leave nobody able to sign in. The operator claims one with \`formsign accounts sso-domain add ${accountId} example.com\`.`, 'sso_required');
  const sso = ssoRequired ?? current.sso_required;
  const twoFactor = require2fa ?? current.require_2fa;
  await deps.transact((trx) => upsertSignInPolicy(trx, { account_id: accountId, sso_required: sso ? 1 : 0, require_2fa: twoFactor ? 1 : 0, updated_at: isoNow(deps.clock) }));
  return signInPolicy(deps, accountId);
}

/** The account whose claimed domain the address is in, if any (the lookup that routes SSO sign-in). */
export async function claimOf(db: Db | Trx, email: string): Promise<{ domain: string; account_id: string } | undefined> {
  return findSsoDomain(db, emailDomain(email));
}

/**
 * Refuses a password for a user of an account requiring single sign-on, and for an unknown address in
 * a domain such an account claimed (the same answer whether or not the user exists): answered before
 * any password is checked.
 */
export async function assertPasswordAllowed(db: Db | Trx, email: string, user: UserRow | undefined): Promise<void> {
  const accountId = user ? user.account_id : (await claimOf(db, email))?.account_id;
  if (accountId) await assertAccountTakesPasswords(db, accountId);
}

/** Whether the account's users may sign in without its identity provider (no `sso_required`). */
export async function takesPasswords(db: Db | Trx, accountId: string): Promise<boolean> {
  return !(await findSignInPolicy(db, accountId)).sso_required;
}

/**
 * The one check every way in that is not the identity provider passes (a password, an e-mailed sign-in
 * or reset link, an invitation's password, setting a password): an account requiring single sign-on
 * takes none of them. Callers that spend a link call it inside that transaction, so the refusal
 * leaves the link as it was.
 */
export async function assertAccountTakesPasswords(db: Db | Trx, accountId: string, param = 'email'): Promise<void> {
  if (!(await takesPasswords(db, accountId))) {
    throw new AppError('sso_required', 'Your account signs in with single sign-on, not a password or an e-mailed link: choose "Sign in with SSO" on the sign-in page.', param);
  }
}

/**
 * Refuses an address in a domain another account claimed (for sign-up, `accountId` null: any claim):
 * made here, its user would belong to one account while single sign-on sends that person to the other.
 */
export async function assertNotClaimedElsewhere(db: Db | Trx, email: string, accountId: string | null): Promise<void> {
  const claim = await claimOf(db, email);
  if (!claim || claim.account_id === accountId) return;
  throw new AppError('parameter_invalid', accountId === null
    ? `Addresses at ${claim.domain} sign in with single sign-on to their organisation's Formsign account: choose "Sign in with SSO" on the sign-in page instead of signing up.`
    : `Addresses at ${claim.domain} belong to another Formsign account, which signs them in with single sign-on: invite an address of another domain.`, 'email');
}
