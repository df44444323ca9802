import { AppError } from '../../domain/errors.js';
import { needOf } from '../../lib/dashboard-permissions.js';
import { roleAtLeast, type Role } from '../../lib/member-roles.js';

// Enforcing the dashboard's permission table (src/lib/dashboard-permissions.ts, the one table of what
// each route needs): the session guard calls this on every request.

/** Refuses a role the table does not allow, in the contract's shape (403 permission_denied). */
export function assertAllowed(role: Role, method: string, url: string): void {
  const need = needOf(method, url);
  if (need === 'public') return;
  if (need === undefined) throw new AppError('permission_denied', 'This dashboard route is not in the permission table, so no one may call it.');
  if (!roleAtLeast(role, need)) {
    throw new AppError('permission_denied', `Your role (${role}) does not allow this; it needs ${need === 'owner' ? 'the owner' : `${need} or above`}. Ask an owner or admin of the account.`);
  }
}
