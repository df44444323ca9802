import { countAccounts } from '../../db/repositories/accounts.js';
import type { DomainDeps } from '../context.js';
import { createApiKey } from '../keys/manage-keys.js';
import { createSampleTemplate } from '../templates/import-template.js';
import type { TemplateView } from '../templates/present-template.js';
import { createAccount, type AccountView } from './manage-accounts.js';

/**
 * First start on an empty database: a trial demo account with one test key and a sample template, so
 * `npm start` is followed by a curl that works. Returns undefined when accounts already exist.
 */
export async function bootstrapDemo(deps: DomainDeps): Promise<{ account: AccountView; key: string; template: TemplateView } | undefined> {
  if ((await countAccounts(deps.db)) > 0) return undefined;
  const account = await createAccount(deps, { name: 'Demo account', plan: 'trial' });
  const key = await createApiKey(deps, { accountId: account.id, mode: 'test', label: 'demo (first start)' });
  const template = await createSampleTemplate(deps, { accountId: account.id, mode: 'test' });
  return { account, key: key.key, template };
}
