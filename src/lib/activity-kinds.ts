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
] as const;

export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export function isActivityKind(value: unknown): value is ActivityKind {
  return typeof value === 'string' && (ACTIVITY_KINDS as readonly string[]).includes(value);
}
