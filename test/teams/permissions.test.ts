import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DASHBOARD_PERMISSIONS, DASHBOARD_PREFIX, mayCall } from '../../src/lib/dashboard-permissions.js';
import { ROLES, type Role } from '../../src/lib/member-roles.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { errorCode, signedUp, type Visitor } from '../dashboard/support.js';
import { joinedMember, signIn } from './support.js';

// The permission table (issue 39 item 1), walked whole: every dashboard route, called by a member of
// every role, is refused with 403 permission_denied exactly when the table says the role may not call
// it, and reaches its handler otherwise. And every route of the table exists (and index.ts refuses to
// start with a route the table does not name).

const routes = Object.entries(DASHBOARD_PERMISSIONS).filter(([, need]) => need !== 'public') as Array<[keyof typeof DASHBOARD_PERMISSIONS, Role]>;

/** The route's path with made-up ids: the call is about who may, not about a real object. */
function concrete(path: string): string {
  return path.replace(':mode', 'test').replace(/:([a-z_]+)/g, (_m, name: string) => `${name.replace('_id', '')}_doesnotexist`);
}

for (const dialect of DIALECTS) {
  describe(`the dashboard permission table (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(dialect);
    });
    after(() => h.close());

    it('names only routes that exist, and every role of every route is allowed or refused as the table says', async () => {
      for (const [route] of routes) {
        const [method, path] = route.split(' ') as [string, string];
        assert.ok(h.app.hasRoute({ method: method as 'GET', url: `${DASHBOARD_PREFIX}${path}` }), `${route} is a route`);
      }

      const owner = await signedUp(h);
      const members: Record<Role, Visitor & { email: string }> = {
        owner,
        admin: await joinedMember(h, owner, 'admin'),
        sender: await joinedMember(h, owner, 'sender'),
        viewer: await joinedMember(h, owner, 'viewer'),
      };
      const seen: string[] = [];
      for (const [route, need] of routes) {
        const [method, path] = route.split(' ') as [string, string];
        for (const role of ROLES) {
          const v = members[role];
          const res = await v.call(method, `${DASHBOARD_PREFIX}${concrete(path)}`);
          const allowed = mayCall(role, route);
          if (allowed) {
            assert.ok(res.status !== 401 && !(res.status === 403 && errorCode(res) === 'permission_denied'), `${role} may ${route} (needs ${need}): got ${res.status} ${res.body.slice(0, 200)}`);
            assert.ok(res.status < 500, `${role} ${route}: ${res.status} ${res.body.slice(0, 200)}`);
          } else {
            assert.equal(res.status, 403, `${role} may not ${route} (needs ${need}): got ${res.status} ${res.body.slice(0, 200)}`);
            assert.equal(errorCode(res), 'permission_denied');
            const e = res.json<{ error: { type: string; message: string } }>().error;
            assert.equal(e.type, 'permission_error');
            assert.match(e.message, new RegExp(`Your role \\(${role}\\) does not allow this`));
          }
          seen.push(`${role} ${route} ${allowed ? 'allowed' : '403'}`);
          // Signing out is allowed to all: sign in again for the next route.
          if (route === 'POST /logout') await signIn(v, v.email);
        }
      }
      assert.equal(seen.length, routes.length * ROLES.length);
      // The table's own shape: the roles nest (what a role may, every role above it may).
      for (const [route] of routes) for (let i = 1; i < ROLES.length; i++) if (mayCall(ROLES[i]!, route)) assert.ok(mayCall(ROLES[i - 1]!, route), route);
      // A few the issue names outright.
      assert.deepEqual(ROLES.map((r) => mayCall(r, 'POST /keys')), [true, true, false, false], 'keys: owner and admin');
      assert.deepEqual(ROLES.map((r) => mayCall(r, 'POST /:mode/forms/:form_id/send')), [true, true, true, false], 'sending: not the viewer');
      assert.deepEqual(ROLES.map((r) => mayCall(r, 'GET /:mode/webhooks/:webhook_id/deliveries')), [true, true, true, false], 'webhook logs: senders read them');
      assert.deepEqual(ROLES.map((r) => mayCall(r, 'GET /:mode/forms')), [true, true, true, true], 'the viewer reads');
      assert.deepEqual(ROLES.map((r) => mayCall(r, 'POST /members/transfer-ownership')), [true, false, false, false], 'only the owner hands ownership on');
    });

    it('a refused call changes nothing and costs no CSRF check first: a viewer cannot make a key even with the page token', async () => {
      const owner = await signedUp(h);
      const viewer = await joinedMember(h, owner, 'viewer');
      const res = await viewer.call('POST', '/dashboard/api/keys', { json: { mode: 'test', label: 'sneaky' } });
      assert.equal(res.status, 403);
      assert.equal(errorCode(res), 'permission_denied');
      const keys = await owner.call('GET', '/dashboard/api/keys');
      assert.deepEqual(keys.json<{ data: unknown[] }>().data, []);
      // Without the CSRF token the answer is the CSRF refusal (checked before the role).
      const noCsrf = await viewer.call('POST', '/dashboard/api/keys', { json: { mode: 'test' }, csrf: false });
      assert.equal(errorCode(noCsrf), 'csrf_token_invalid');
    });
  });
}
