import { roleAtLeast, type Role } from './member-roles.js';

/**
 * What each dashboard API route needs (issue 39): the one table. It lives in lib/ because the
 * dashboard's pages read it too, to show only what the member's role allows. `public` routes take
 * no session (sign-up, sign-in, accepting an invitation); every other route names the least role that
 * may call it (owner ⊇ admin ⊇ sender ⊇ viewer, member-roles.ts). The session guard
 * (src/http/dashboard/guard.ts) enforces it on every request, and the dashboard refuses to start with
 * a route that is not in this table, or that needs a role but has no guard (src/http/dashboard/index.ts),
 * so a new route cannot slip through unlisted. test/teams/permissions.test.ts calls every route as
 * every role.
 *
 * - owner: everything, including the plan and usage view and handing ownership on.
 * - admin: members, API keys, webhooks, settings, and everything on forms and templates.
 * - sender: templates and forms (create, send, remind, void); reads webhooks and their deliveries.
 * - viewer: reads forms and templates.
 * Every role signs itself out and sets its own password.
 */
export type Need = 'public' | Role;

export const DASHBOARD_PERMISSIONS = {
  // Signing in and out (no session yet; sign-up, sign-in and the e-mailed links).
  'POST /signup': 'public',
  'POST /login': 'public',
  'POST /login-link': 'public',
  'POST /access-email': 'public',
  'POST /password-reset': 'public',
  'POST /invitation/lookup': 'public',
  'POST /invitation/accept': 'public',
  // Issue 39: single sign-on starts without a session; the two-factor routes are every member's own
  // (their guard also admits the half-signed-in session of the step they finish).
  'POST /sso/start': 'public',
  'GET /two-factor': 'viewer',
  'POST /two-factor/enrolment': 'viewer',
  'POST /two-factor/enrolment/confirm': 'viewer',
  'POST /two-factor/verify': 'viewer',
  'POST /two-factor/disable': 'viewer',
  'GET /session': 'viewer',
  'POST /logout': 'viewer',
  'POST /password': 'viewer',

  // Templates.
  'GET /:mode/templates': 'viewer',
  'GET /:mode/templates/:template_id': 'viewer',
  'GET /:mode/templates/:template_id/pdf': 'viewer',
  'POST /:mode/templates': 'sender',
  'PATCH /:mode/templates/:template_id': 'sender',
  'POST /:mode/templates/:template_id/relabel': 'sender',
  // Issue 41: the builder's "Detect tags" reads the stored document again (nothing is written).
  'POST /:mode/templates/:template_id/detect-tags': 'sender',
  'DELETE /:mode/templates/:template_id': 'sender',

  // Forms.
  'GET /:mode/forms': 'viewer',
  'GET /:mode/forms/:form_id': 'viewer',
  'GET /:mode/forms/:form_id/events': 'viewer',
  'GET /:mode/forms/:form_id/pdf': 'viewer',
  'GET /:mode/forms/:form_id/signed-pdf': 'viewer',
  'GET /:mode/forms/:form_id/evidence': 'viewer',
  'POST /:mode/forms': 'sender',
  'POST /:mode/forms/generate': 'sender',
  'POST /:mode/forms/:form_id/send': 'sender',
  'POST /:mode/forms/:form_id/remind': 'sender',
  'POST /:mode/forms/:form_id/void': 'sender',
  // Issue 38: who verified when (read), and "Change recipient" (a sender's correction).
  'GET /:mode/forms/:form_id/verification': 'viewer',
  'PATCH /:mode/forms/:form_id/recipients/:recipient_id': 'sender',
  // Deleting a form and legal holds reach beyond sending: "everything on forms" is the admin's.
  'DELETE /:mode/forms/:form_id': 'admin',
  'POST /:mode/forms/:form_id/hold': 'admin',
  'DELETE /:mode/forms/:form_id/hold': 'admin',

  // Bulk send (issue 42): senders send; every role reads a bulk send's progress and rows.
  'POST /:mode/bulk-sends/preview': 'sender',
  'POST /:mode/bulk-sends': 'sender',
  'GET /:mode/bulk-sends': 'viewer',
  'GET /:mode/bulk-sends/:bulk_id': 'viewer',
  'GET /:mode/bulk-sends/:bulk_id/rows': 'viewer',

  // Webhooks: senders read them and their delivery log; admins change them.
  'GET /:mode/webhooks': 'sender',
  'GET /:mode/webhooks/:webhook_id/deliveries': 'sender',
  'POST /:mode/webhooks': 'admin',
  'PATCH /:mode/webhooks/:webhook_id': 'admin',
  'DELETE /:mode/webhooks/:webhook_id': 'admin',
  'POST /:mode/webhooks/:webhook_id/rotate-secret': 'admin',
  'POST /:mode/webhooks/:webhook_id/test': 'admin',
  'POST /:mode/webhooks/:webhook_id/deliveries/:delivery_id/retry': 'admin',

  // API keys (account-wide; they show who made them).
  'GET /keys': 'admin',
  'POST /keys': 'admin',
  'POST /keys/:key_id/revoke': 'admin',

  // Settings.
  'PATCH /account': 'admin',
  'GET /settings/locale': 'admin',
  'PUT /settings/locale': 'admin',
  'GET /settings/retention': 'admin',
  'PUT /settings/retention': 'admin',
  'GET /settings/notifications': 'admin',
  'PATCH /settings/notifications': 'admin',
  'GET /settings/sign-in': 'admin',
  'PUT /settings/sign-in': 'admin',
  // Issue 42: every member's dashboard wears the brand; admins change it.
  'GET /settings/branding': 'viewer',
  'PUT /settings/branding': 'admin',
  'GET /:mode/embed/origins': 'admin',
  'POST /:mode/embed/origins': 'admin',
  'DELETE /:mode/embed/origins': 'admin',
  // The dev outbox holds every e-mail of the account, members' sign-in links among them.
  'GET /:mode/outbox': 'admin',
  'GET /:mode/outbox/:message_id/html': 'admin',

  // Members and the activity log.
  'GET /members': 'admin',
  'POST /members/invitations': 'admin',
  'DELETE /members/invitations/:invitation_id': 'admin',
  'PATCH /members/:user_id': 'admin',
  'DELETE /members/:user_id': 'admin',
  'POST /members/transfer-ownership': 'owner',
  'GET /activity': 'admin',

  // The plan and its usage.
  'GET /usage': 'owner',

  // Anything else: a JSON 404.
  '* /*': 'public',
} as const satisfies Record<string, Need>;

export const DASHBOARD_PREFIX = '/dashboard/api';

/** A route's entry: by method and path pattern (without the prefix); HEAD is its GET. Undefined: not listed. */
export function needOf(method: string, url: string): Need | undefined {
  const path = url.startsWith(DASHBOARD_PREFIX) ? url.slice(DASHBOARD_PREFIX.length) || '/' : url;
  const m = method === 'HEAD' ? 'GET' : method;
  const table: Readonly<Record<string, Need>> = DASHBOARD_PERMISSIONS;
  return table[`${m} ${path}`] ?? table[`* ${path}`];
}

/** Whether a role may call a route of the table (the page hides what the server would refuse). */
export function mayCall(role: Role, route: keyof typeof DASHBOARD_PERMISSIONS): boolean {
  const need: Need = DASHBOARD_PERMISSIONS[route];
  return need === 'public' || roleAtLeast(role, need);
}
