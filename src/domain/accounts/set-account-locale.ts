import { findAccount, updateAccount } from '../../db/repositories/accounts.js';
import { canonicalLocaleTag, LANGUAGE_NAMES, LOCALES, supportedLocale, type Locale } from '../../lib/i18n/index.js';
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

/** The dashboard's Settings → default language: the account's choice and the languages it may pick. */
export interface LocaleSettingsView {
  object: 'locale_settings';
  account_id: string;
  /** The signers' default language (a tag of `languages`); null: English. */
  locale: string | null;
  /** Every language signers can read, by its own name, English first. */
  languages: Array<{ tag: Locale; name: string }>;
}

export async function getLocaleSettings(deps: Pick<DomainDeps, 'db'>, accountId: string): Promise<LocaleSettingsView> {
  const account = await findAccount(deps.db, accountId);
  if (!account) throw notFound('account', accountId);
  return { object: 'locale_settings', account_id: accountId, locale: account.locale ?? null, languages: LOCALES.map((tag) => ({ tag, name: LANGUAGE_NAMES[tag] })) };
}

/** Sets (a BCP 47 tag with a catalogue) or clears (null) the default, by setAccountLocale's rules. */
export async function setLocaleSettings(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>, accountId: string, locale: string | null): Promise<LocaleSettingsView> {
  await setAccountLocale(deps, accountId, locale ?? 'default');
  return getLocaleSettings(deps, accountId);
}
