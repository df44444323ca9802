import { findAccount, updateAccount } from '../../db/repositories/accounts.js';
import { canonicalLocaleTag, LOCALES, supportedLocale } from '../../lib/i18n/index.js';
import { isoNow } from '../../lib/clock.js';
import type { DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import { presentAccount, type AccountView } from './manage-accounts.js';

/**
 * The account's default language for its signers (`formsign accounts set-locale`): used when a
 * recipient was sent no `locale` and their browser names no language a catalogue exists for. Unlike a
 * recipient's locale, which the signer's browser may still overrule, this is the operator's choice, so
 * a language without a catalogue is refused rather than silently read as English; `default` clears it.
 */
export async function setAccountLocale(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>, id: string, locale: string): Promise<AccountView> {
  let value: string | null = null;
  if (locale !== 'default') {
    value = canonicalLocaleTag(locale);
    if (value === null) throw new AppError('parameter_invalid', `"${locale}" is not a BCP 47 language tag such as "de" or "pt-BR".`, 'locale');
    if (supportedLocale(value) === null) throw new AppError('language_unsupported', `There is no translation for "${value}"; the languages are ${LOCALES.join(', ')}.`, 'locale');
  }
  if (!(await deps.transact((trx) => updateAccount(trx, id, { locale: value, updated_at: isoNow(deps.clock) })))) throw notFound('account', id);
  return presentAccount((await findAccount(deps.db, id))!);
}
