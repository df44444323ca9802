// What a message is for (migration 0014): the one list. The messages table's type, the dev outbox's
// data and the dashboard's dev outbox page (which describes each kind) derive from it; a kind added
// here fails the dashboard's typecheck until the page says what it is (test/unit/one-source.test.ts).

export const MESSAGE_KINDS = [
  /** The signing invitation. */
  'invite',
  'reminder',
  /** The notice that a form was voided. */
  'void_notice',
  /** The sealed copy a recipient gets. */
  'completed_copy',
  /** The notices the account's notify_email gets. */
  'notice_completed',
  'notice_declined',
  'notice_viewed',
  /** A signer passed the form to someone else (issue 38, `allow_reassign`). */
  'notice_reassigned',
  /** A signer check's one-time code (e-mail or SMS; issue 38). */
  'auth_code',
  /** A dashboard user's one-time sign-in link, asked for on the sign-in page (issue 37). */
  'sign_in_link',
  /** A dashboard user's one-time link to set a new password ("Forgot password?", issue 37). */
  'password_reset',
  /** "Finish later" on the signing page: the signing link again, to the signer who asked (issue 43). */
  'resume_link',
  /** An invitation to join an account's dashboard as a member (issue 39). */
  'member_invitation',
] as const;

export type MessageKind = (typeof MESSAGE_KINDS)[number];
