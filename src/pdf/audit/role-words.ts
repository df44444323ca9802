import type { Locale } from '../../lib/i18n/index.js';
import { roleWords, type RoleWords } from '../../lib/i18n/role-words.js';

// The audit trail's words for recipient roles (issue 42): the one list of role words (lib/i18n).
export function roleAuditWords(locale: Locale): Pick<RoleWords, 'approver' | 'cc' | 'viewer' | 'approved'> {
  return roleWords(locale);
}
