import type { Trx } from '../../db/handles.js';

// What single sign-on and two-factor sign-in write to the account's activity log (issue 39 item 5):
// a seam until the log lands (branch `teams`), then each entry goes into the same unit of work as
// the change it records.

export type SignInActivity = 'user.signed_in_sso' | 'user.created_sso' | 'two_factor.enabled' | 'two_factor.disabled' | 'two_factor.recovery_code_used' | 'two_factor.failed';

export interface SignInActivityEntry {
  accountId: string;
  userId: string;
  /** The user's address, for the log's "who". */
  email: string;
  action: SignInActivity;
  ip: string | null;
}

export async function recordSignInActivity(_trx: Trx, _entry: SignInActivityEntry): Promise<void> {
  // Nothing to write to until the activity log exists.
}
