import { countAccounts } from '../../db/repositories/accounts.js';
import type { DomainDeps } from '../context.js';
import { createApiKey } from '../keys/manage-keys.js';
import { createSampleTemplate } from '../templates/import-template.js';
import type { TemplateView } from '../templates/present-template.js';
import { createLoginLink, createUser } from '../users/manage-users.js';
import { createAccount, type AccountView } from './manage-accounts.js';

/** The demo account's dashboard user; it signs in with the one-time link the first start prints. */
export const DEMO_USER_EMAIL = 'demo@example.com';

/**
 * First start on an empty database: the owner's account (paid plan, no monthly quota) with one test key, a sample template and a
 * dashboard user, so `npm start` is followed by a curl that works and a sign-in link. Returns undefined
 * when accounts already exist.
 */
export async function bootstrapDemo(deps: DomainDeps): Promise<{ account: AccountView; key: string; template: TemplateView; loginLink: string } | undefined> {
  if ((await countAccounts(deps.db)) > 0) return undefined;
  // The instance belongs to whoever started it: live mode allowed, no monthly quota (issue 37).
  const account = await createAccount(deps, { name: 'Demo account', plan: 'paid', unmetered: true });
  const key = await createApiKey(deps, { accountId: account.id, mode: 'test', label: 'demo (first start)' });
  const template = await createSampleTemplate(deps, { accountId: account.id, mode: 'test' });
  const user = await createUser(deps, { accountId: account.id, email: DEMO_USER_EMAIL });
  const link = await createLoginLink(deps, user.email);
  return { account, key: key.key, template, loginLink: link.url };
}
