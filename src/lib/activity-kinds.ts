// What an account activity entry records (issue 39 item 5): the one list. The account_activity
// table's type, the Activity page's filter and `formsign accounts activity --kind` derive from it.

export const ACTIVITY_KINDS = [
  'member.signed_in',
  /** A wrong password for a member's address (an unknown address has no account to log it in). */
  'member.sign_in_failed',
  'member.password_changed',
  'member.invited',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'invitation.revoked',
  'ownership.transferred',
  'key.created',
  'key.revoked',
  'webhook.created',
  'webhook.rotated',
  'webhook.deleted',
  'settings.changed',
  // Issue 39 item 4: two-factor sign-in (a sign-in through single sign-on is member.signed_in, via sso).
  'two_factor.enabled',
  'two_factor.disabled',
  'two_factor.recovery_code_used',
  /** A wrong code at the second step (or to turn it off): the password was right. */
  'two_factor.failed',
] as const;

export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export function isActivityKind(value: unknown): value is ActivityKind {
  return typeof value === 'string' && (ACTIVITY_KINDS as readonly string[]).includes(value);
}
