import { insertAccount } from '../../db/repositories/accounts.js';
import { findUserByEmail, insertUser } from '../../db/repositories/users.js';
import type { AccountRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';
import { assertSignupAllowed, recordSignup } from './login-throttle.js';
import { hashPassword } from './passwords.js';
import { insertNewSession, resolveSession, type StartedSession } from './sessions.js';
import { accountName, checkNewPassword, normalizeEmail } from './user-rules.js';

const TAKEN = 'An account already uses this e-mail address. Sign in instead.';

/**
 * Sign-up: a new account on the trial plan (test keys only), its first user and a session, written
 * together so a taken address leaves no account behind.
 */
export async function signUp(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>, input: { account_name: unknown; email: unknown; password: unknown; ip: string | null }): Promise<StartedSession> {
  const name = accountName(input.account_name);
  const email = normalizeEmail(input.email);
  const password = checkNewPassword(input.password);
  await assertSignupAllowed(deps, input.ip);
  if (await findUserByEmail(deps.db, email)) throw new AppError('email_taken', TAKEN, 'email');
  const passwordHash = await hashPassword(password);
  const now = isoNow(deps.clock);
  const account: AccountRow = { id: newId('account'), name, email, plan: 'trial', monthly_limit: null, per_minute_limit: null, created_at: now, updated_at: now };
  const userId = newId('user');
  const started = await deps.transact(async (trx) => {
    // Checked again inside the write: two sign-ups with one address at once get one account.
    if (await findUserByEmail(trx, email)) throw new AppError('email_taken', TAKEN, 'email');
    await insertAccount(trx, account);
    await insertUser(trx, { id: userId, account_id: account.id, email, password_hash: passwordHash, created_at: now, updated_at: now });
    return insertNewSession(trx, deps, { id: userId, account_id: account.id });
  });
  await recordSignup(deps, input.ip);
  const session = await resolveSession(deps, started.token);
  if (!session) throw new Error('a session just written was not found');
  return { token: started.token, view: session.view };
}
