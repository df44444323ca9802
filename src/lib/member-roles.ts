// A dashboard member's role (issue 39; CONTRACT Part E): the one list. The users table's type, the
// dashboard's permission table (src/http/dashboard/permissions.ts), the CLI and the Members page
// derive from it. Ordered from most to least power: each role can do all that the roles after it can.

export const ROLES = ['owner', 'admin', 'sender', 'viewer'] as const;

export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** True when `role` has at least the power of `least` (owner ⊇ admin ⊇ sender ⊇ viewer). */
export function roleAtLeast(role: Role, least: Role): boolean {
  return ROLES.indexOf(role) <= ROLES.indexOf(least);
}

/** What each role may do, in a sentence for people (the invitation e-mail, the Members page). */
export const ROLE_SUMMARY: Readonly<Record<Role, string>> = {
  owner: 'everything, including the plan, usage and handing ownership on',
  admin: 'members, API keys, webhooks, settings, and everything on forms and templates',
  sender: 'templates and forms: create, send, remind and void; reads webhooks',
  viewer: 'reads forms and templates',
};
