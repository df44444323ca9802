import { randomBytes } from 'node:crypto';
import { findAccount } from '../../db/repositories/accounts.js';
import { consumeSsoFlow, insertSsoFlow } from '../../db/repositories/sso.js';
import { findUserByEmail, insertUser } from '../../db/repositories/users.js';
import { sha256Hex } from '../../lib/crypto.js';
import { newId } from '../../lib/ids.js';
import { OidcError, type OidcClient, type OidcIdentity } from '../../providers/oidc/oidc-client.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';
import { insertNewSession, startedSession, type StartedSession } from '../users/sessions.js';
import { recordActivity } from '../activity/record-activity.js';
import { normalizeEmail } from '../users/user-rules.js';
import { claimOf, emailDomain } from './sso-domains.js';

// Single sign-on with OpenID Connect (issue 39 item 3): authorization code with PKCE. Starting keeps
// the attempt's state, nonce and code verifier in the store under the hash of a random token the
// browser holds in a short-lived cookie, so the answer is accepted once, in the browser that asked,
// within SSO_FLOW_MINUTES. The provider's verified e-mail address decides the account (by its
// claimed domain); a person of that domain without a user yet gets one (just in time).

export const SSO_FLOW_MINUTES = 10;

type Deps = Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'oidc'>;

export interface StartedSso {
  /** For the browser's cookie; the store keeps its hash. */
  flowToken: string;
  /** Where the browser goes: the provider's authorization endpoint. */
  url: string;
  expiresAt: string;
}

const random = () => randomBytes(32).toString('base64url');

function provider(deps: Deps): OidcClient {
  if (!deps.oidc) throw new AppError('sso_not_available', 'Single sign-on is not set up on this server. Sign in with your password, or ask your operator to configure OIDC_ISSUER_URL.');
  return deps.oidc;
}

const unclaimed = (domain: string, param?: string) =>
  new AppError('sso_not_available', `Single sign-on is not set up for ${domain}: no account on this server has claimed that e-mail domain. Sign in with your password, or ask your administrator to claim the domain.`, param);

/** Starts a provider sign-in; with an e-mail address, only if its domain is claimed (and it is passed as a hint). */
export async function startSsoSignIn(deps: Deps, input: { email?: unknown }): Promise<StartedSso> {
  const oidc = provider(deps);
  const email = input.email === undefined || input.email === null || input.email === '' ? undefined : normalizeEmail(input.email);
  if (email && !(await claimOf(deps.db, email))) throw unclaimed(emailDomain(email), 'email');
  const checks = { state: random(), nonce: random(), codeVerifier: random() };
  let url: string;
  try {
    url = await oidc.authorizationUrl(checks, email);
  } catch (err) {
    if (err instanceof OidcError) throw new AppError('service_unavailable', err.message);
    throw err;
  }
  const flowToken = random();
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + SSO_FLOW_MINUTES * 60_000).toISOString();
  await deps.transact((trx) => insertSsoFlow(trx, { id_hash: sha256Hex(flowToken), state: checks.state, nonce: checks.nonce, code_verifier: checks.codeVerifier, created_at: now.toISOString(), expires_at: expiresAt, used_at: null }));
  return { flowToken, url, expiresAt };
}

/**
 * Finishes a provider sign-in from the callback address: the attempt is spent first (a second use of
 * the same answer finds nothing), then the answer's state, the code (exchanged with the verifier)
 * and the ID token's nonce are checked, then the address decides the account and the user.
 */
export async function finishSsoSignIn(deps: Deps, input: { flowToken: string | undefined; callbackUrl: URL; ip: string | null }): Promise<StartedSession & { created: boolean }> {
  const oidc = provider(deps);
  const now = deps.clock.now().toISOString();
  const token = input.flowToken;
  const flow = token && token.length <= 100 ? await deps.transact((trx) => consumeSsoFlow(trx, sha256Hex(token), now)) : undefined;
  if (!flow) {
    throw new AppError('sso_failed', `This single sign-on answer is unknown, has expired or was used already: each works once, for ${SSO_FLOW_MINUTES} minutes, in the browser that started it. Start again from the sign-in page.`);
  }
  if (input.callbackUrl.searchParams.get('state') !== flow.state) {
    throw new AppError('sso_failed', 'The identity provider\'s answer belongs to another sign-in attempt (its state differs), so it was not accepted. Start again from the sign-in page.');
  }
  let identity: OidcIdentity;
  try {
    identity = await oidc.identify(input.callbackUrl, { state: flow.state, nonce: flow.nonce, codeVerifier: flow.code_verifier });
  } catch (err) {
    if (err instanceof OidcError) throw new AppError(err.reason === 'unreachable' ? 'service_unavailable' : 'sso_failed', err.message);
    throw err;
  }
  if (!identity.email) throw new AppError('sso_failed', 'The identity provider did not say your e-mail address. Its client for Formsign must allow the scopes openid, email and profile.');
  if (!identity.emailVerified) throw new AppError('sso_failed', `The identity provider has not verified ${identity.email.slice(0, 254)}. Verify the address there, then sign in again.`);
  const email = normalizeEmail(identity.email);
  const claim = await claimOf(deps.db, email);
  if (!claim) throw unclaimed(emailDomain(email));
  const account = await findAccount(deps.db, claim.account_id);
  if (!account) throw unclaimed(emailDomain(email));
  const existing = await findUserByEmail(deps.db, email);
  if (existing && existing.account_id !== account.id) {
    throw new AppError('sso_not_available', `${email} is a user of another account on this server, which has not claimed ${emailDomain(email)}. Sign in there with your password.`);
  }
  const at = deps.clock.now().toISOString();
  // Just in time: the first sign-in makes the user, as a sender (issue 39); an admin may raise the role.
  const user = existing ?? { id: newId('user'), account_id: account.id, email, password_hash: null, role: 'sender' as const, last_sign_in_at: null, created_at: at, updated_at: at };
  const s = await deps.transact(async (trx) => {
    if (!existing) {
      await insertUser(trx, user);
      await recordActivity(trx, deps, { accountId: account.id, actor: { userId: user.id, email, ip: input.ip }, kind: 'member.joined', target: email, detail: { via: 'sso', role: user.role } });
    }
    return insertNewSession(trx, deps, user, { ip: input.ip, via: 'sso' });
  });
  return { ...(await startedSession(deps, s.token)), created: !existing };
}
