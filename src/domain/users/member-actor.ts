import type { Role } from '../../lib/member-roles.js';
import type { Actor } from '../activity/record-activity.js';

/** Who is asking: the signed-in member (or the operator, with the account's every power). */
export interface MemberActor extends Actor {
  readonly role: Role;
}
