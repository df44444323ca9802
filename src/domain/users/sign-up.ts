import { insertAccount } from '../../db/repositories/accounts.js';
import { findUserByEmail, insertUser } from '../../db/repositories/users.js';
import type { AccountRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';
import { assertNotClaimedElsewhere } from '../sso/sso-domains.js';
import { reserveSignup } from './login-throttle.js';
import { hashPassword } from './passwords.js';
import { insertNewSession, resolveSession, type StartedSession } from './sessions.js';
import { accountName, checkNewPassword, normalizeEmail } from './user-rules.js';

const TAKEN = 'An account already uses this e-mail address. Sign in instead.';

/**
 * Sign-up: a new account on the operator's sign-up plan (DEFAULT_PLAN: trial unless set), its first user and a session, written
 * together so a taken address leaves no account behind.
 */
export async function signUp(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'plans' | 'passwordCost'>, input: { account_name: unknown; email: unknown; password: unknown; ip: string | null }): Promise<StartedSession> {
  const name = accountName(input.account_name);
  const email = normalizeEmail(input.email);
  const password = checkNewPassword(input.password);
  // Reserved before any work (one increment that returns the count), so parallel sign-ups cannot all
  // pass; a sign-up that makes no account gives its place back.
  const attempt = await reserveSignup(deps, input.ip);
  let started: Awaited<ReturnType<typeof insertNewSession>>;
  try {
    started = await makeAccount(deps, { name, email, password, ip: input.ip });
  } catch (err) {
    await attempt.release();
    throw err;
  }
  const session = await resolveSession(deps, started.token);
  if (!session) throw new Error('a session just written was not found');
  return { token: started.token, view: session.view };
}

async function makeAccount(deps: Pick<DomainDeps, 'transact' | 'db' | 'clock' | 'plans' | 'passwordCost'>, input: { name: string; email: string; password: string; ip: string | null }): Promise<Awaited<ReturnType<typeof insertNewSession>>> {
  const { name, email } = input;
  if (await findUserByEmail(deps.db, email)) throw new AppError('email_taken', TAKEN, 'email');
  await assertNotClaimedElsewhere(deps.db, email, null);
  const passwordHash = await hashPassword(input.password, deps.passwordCost);
  const now = isoNow(deps.clock);
  const account: AccountRow = { id: newId('account'), name, email, plan: deps.plans.signUpPlan, monthly_limit: null, per_minute_limit: null, unmetered: 0, locale: null, retention_days: null, created_at: now, updated_at: now };
  const userId = newId('user');
  return deps.transact(async (trx) => {
    // Checked again inside the write: two sign-ups with one address at once get one account.
    if (await findUserByEmail(trx, email)) throw new AppError('email_taken', TAKEN, 'email');
    await insertAccount(trx, account);
    // The one who signs up owns the account.
    await insertUser(trx, { id: userId, account_id: account.id, email, password_hash: passwordHash, role: 'owner', created_at: now, updated_at: now });
    return insertNewSession(trx, deps, { id: userId, account_id: account.id, email, role: 'owner' }, { ip: input.ip, via: 'sign_up' });
  });
}
