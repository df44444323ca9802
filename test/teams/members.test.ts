import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sha256Hex } from '../../src/lib/crypto.js';
import { INVITATION_DAYS } from '../../src/domain/users/invitations.js';
import { changeRole, removeMember } from '../../src/domain/users/members.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { FakeClock, startSmtpSink, type ReceivedMail } from '../outbox/support/sending.js';
import { errorCode, PASSWORD, signedUp, uniqueEmail, visitor, type Visitor } from '../dashboard/support.js';
import { joinedMember, tokenOf } from './support.js';

// Members (issue 39 items 2 and 6) on both dialects: an invitation through the outbox and a real SMTP
// conversation, joined once within 7 days; role changes that give the member's session a new id;
// removal that ends the member's sessions at their next request; the rules that keep an owner; and
// another account's members and invitations "not found".

const T0 = '2026-12-07T09:00:00.000Z';
const BASE = 'https://dash.acme.test';

interface Member { id: string; email: string; role: string; has_password: boolean; two_factor: boolean; last_sign_in_at: string | null }
interface Members { object: 'members'; data: Member[]; invitations: Array<{ id: string; email: string; role: string; invited_by: string; expires_at: string }> }

for (const dialect of DIALECTS) {
  describe(`members and invitations (${dialect})`, () => {
    let h: Harness;
    let clock: FakeClock;
    let sink: Awaited<ReturnType<typeof startSmtpSink>>;
    before(async () => {
      sink = await startSmtpSink();
      clock = new FakeClock(Date.parse(T0));
      h = await createHarness(dialect, { clock, env: { SMTP_URL: sink.url, MAIL_FROM: 'Formsign <no-reply@acme.test>', BASE_URL: BASE } });
    });
    after(async () => {
      await h.close();
      await sink.close();
    });

    const drain = async () => {
      for (let i = 0; i < 10; i++) if ((await h.deps.worker.runDue()) === 0) return;
      assert.fail('jobs still due after 10 rounds');
    };
    const mailTo = (address: string): ReceivedMail => {
      const mails = sink.received.filter((m) => m.envelopeTo.includes(address));
      assert.equal(mails.length, 1, `one mail to ${address}`);
      return mails[0]!;
    };
    const linkIn = (mail: ReceivedMail): string => {
      const url = new RegExp(`${BASE.replace(/[.]/g, '\\.')}/dashboard/join#[A-Za-z0-9_-]{43}`).exec(mail.parsed.text ?? '')?.[0] ?? assert.fail(`no invitation link in: ${mail.parsed.text}`);
      assert.ok(String(mail.parsed.html).includes(url), 'the HTML part carries the same link');
      return url;
    };
    const members = async (v: Visitor) => (await v.call('GET', '/dashboard/api/members')).json<Members>();

    it('an invitation goes out by e-mail, shows its account and role, joins once with a password, and not after 7 days', async () => {
      const owner = await signedUp(h);
      const email = uniqueEmail('invitee');
      const invited = await owner.call('POST', '/dashboard/api/members/invitations', { json: { email: email.toUpperCase(), role: 'sender' } });
      assert.equal(invited.status, 201, invited.body);
      const invitation = invited.json<{ id: string; email: string; role: string; invited_by: string; expires_at: string }>();
      assert.deepEqual([invitation.email, invitation.role, invitation.invited_by], [email, 'sender', owner.email]);
      assert.equal(invitation.expires_at, new Date(Date.parse(T0) + INVITATION_DAYS * 86_400_000).toISOString());
      assert.ok(!invited.body.includes('/dashboard/join#'), 'the link goes by e-mail only, never back to the page');
      assert.deepEqual((await members(owner)).invitations.map((i) => i.email), [email]);

      await drain();
      const mail = mailTo(email);
      assert.equal(mail.parsed.subject, 'You are invited to Acme on Formsign');
      assert.match(mail.parsed.text ?? '', new RegExp(`${owner.email.replace(/[.]/g, '\\.')} invited ${email.replace(/[.]/g, '\\.')}`));
      assert.match(mail.parsed.text ?? '', /as a sender \(templates and forms/);
      assert.match(mail.parsed.text ?? '', /works once, for 7 days/);
      const token = tokenOf(linkIn(mail));
      const message = await h.deps.domain.db.selectFrom('messages').selectAll().where('to_address', '=', email).executeTakeFirstOrThrow();
      assert.deepEqual([message.kind, message.form_id, message.status, message.transport], ['member_invitation', null, 'delivered', 'smtp']);
      // Only the token's SHA-256 is stored.
      const stored = await h.deps.domain.db.selectFrom('invitations').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
      assert.equal(stored.token_hash, sha256Hex(token));
      assert.ok(!JSON.stringify(stored).includes(token));

      const invitee = visitor(h);
      const preview = await invitee.call('POST', '/dashboard/api/invitation/lookup', { json: { token } });
      assert.equal(preview.status, 200, preview.body);
      assert.deepEqual(preview.json(), { object: 'invitation_preview', email, role: 'sender', account_name: 'Acme', expires_at: invitation.expires_at });
      // A password that breaks the rules does not spend the link.
      assert.equal(errorCode(await invitee.call('POST', '/dashboard/api/invitation/accept', { json: { token, password: 'short' } })), 'parameter_invalid');
      const joined = await invitee.call('POST', '/dashboard/api/invitation/accept', { json: { token, password: PASSWORD } });
      assert.equal(joined.status, 201, joined.body);
      assert.match(String(joined.headers['set-cookie']), /^formsign_session=[A-Za-z0-9_-]{43}; Path=\/dashboard;.*HttpOnly; SameSite=Lax; Secure/);
      assert.deepEqual(joined.json<{ user: { email: string; role: string } }>().user.role, 'sender');
      // Single use: the same link again, from anywhere, is refused; so is its preview.
      const again = await visitor(h).call('POST', '/dashboard/api/invitation/accept', { json: { token, password: PASSWORD } });
      assert.deepEqual([again.status, errorCode(again)], [410, 'link_expired']);
      assert.equal(errorCode(await visitor(h).call('POST', '/dashboard/api/invitation/lookup', { json: { token } })), 'link_expired');
      // The member is listed; the invitation is not open any more; the invitee signs in with the password.
      const list = await members(owner);
      assert.deepEqual(list.invitations, []);
      const member = list.data.find((m) => m.email === email)!;
      assert.deepEqual([member.role, member.has_password, member.two_factor, member.last_sign_in_at], ['sender', true, false, T0]);
      assert.equal((await visitor(h).call('POST', '/dashboard/api/login', { json: { email, password: PASSWORD } })).status, 200);

      // An invitation not used within 7 days no longer works.
      const late = uniqueEmail('late');
      assert.equal((await owner.call('POST', '/dashboard/api/members/invitations', { json: { email: late, role: 'viewer' } })).status, 201);
      await drain();
      const lateToken = tokenOf(linkIn(mailTo(late)));
      clock.advance(INVITATION_DAYS * 86_400_000 + 1000);
      try {
        assert.equal(errorCode(await visitor(h).call('POST', '/dashboard/api/invitation/accept', { json: { token: lateToken, password: PASSWORD } })), 'link_expired');
        assert.deepEqual((await members(owner)).invitations, [], 'an expired invitation is not listed as open');
      } finally {
        clock.set(T0);
      }
    });

    it('a new invitation replaces the open one; a withdrawn one does not work; an address with a user cannot be invited', async () => {
      const owner = await signedUp(h);
      const email = uniqueEmail('twice');
      await owner.call('POST', '/dashboard/api/members/invitations', { json: { email, role: 'viewer' } });
      await owner.call('POST', '/dashboard/api/members/invitations', { json: { email, role: 'admin' } });
      await drain();
      const mails = sink.received.filter((m) => m.envelopeTo.includes(email));
      assert.equal(mails.length, 2);
      // The outbox may deliver the two in either order: each is told by the role it offers.
      const tokenFor = (role: string) => tokenOf(linkIn(mails.find((m) => (m.parsed.text ?? '').includes(` as a${role === 'admin' ? 'n' : ''} ${role} (`)) ?? assert.fail(`no ${role} invitation`)));
      const [first, second] = [tokenFor('viewer'), tokenFor('admin')];
      assert.equal(errorCode(await visitor(h).call('POST', '/dashboard/api/invitation/lookup', { json: { token: first } })), 'link_expired', 'the first is replaced');
      const open = (await members(owner)).invitations;
      assert.deepEqual(open.map((i) => [i.email, i.role]), [[email, 'admin']]);
      const withdrawn = await owner.call('DELETE', `/dashboard/api/members/invitations/${open[0]!.id}`);
      assert.equal(withdrawn.status, 200, withdrawn.body);
      assert.equal(errorCode(await visitor(h).call('POST', '/dashboard/api/invitation/accept', { json: { token: second, password: PASSWORD } })), 'link_expired');
      const taken = await owner.call('POST', '/dashboard/api/members/invitations', { json: { email: owner.email, role: 'viewer' } });
      assert.deepEqual([taken.status, errorCode(taken)], [409, 'email_taken']);
      // Only an owner invites an owner.
      const admin = await joinedMember(h, owner, 'admin');
      assert.equal(errorCode(await admin.call('POST', '/dashboard/api/members/invitations', { json: { email: uniqueEmail(), role: 'owner' } })), 'permission_denied');
      assert.equal((await admin.call('POST', '/dashboard/api/members/invitations', { json: { email: uniqueEmail(), role: 'admin' } })).status, 201);
    });

    it('a role change counts at the member\'s next request, under a new session id; removal ends every session of the member at once', async () => {
      const owner = await signedUp(h);
      const viewer = await joinedMember(h, owner, 'viewer');
      const otherTab = visitor(h);
      otherTab.cookie = viewer.cookie;
      otherTab.csrf = viewer.csrf;
      const oldCookie = viewer.cookie!;
      assert.equal(errorCode(await viewer.call('POST', '/dashboard/api/test/forms', { json: {} })), 'permission_denied');

      const changed = await owner.call('PATCH', `/dashboard/api/members/${viewer.userId}`, { json: { role: 'sender' } });
      assert.equal(changed.status, 200, changed.body);
      assert.equal(changed.json<{ role: string }>().role, 'sender');
      // The next request: the new role, and a new session id (the old one ends); the CSRF token stays.
      const next = await viewer.call('GET', '/dashboard/api/session');
      assert.equal(next.status, 200);
      assert.equal(next.json<{ user: { role: string } }>().user.role, 'sender');
      assert.ok(viewer.cookie && viewer.cookie !== oldCookie, 'a new session id');
      const stale = visitor(h);
      stale.cookie = oldCookie;
      assert.equal(errorCode(await stale.call('GET', '/dashboard/api/session')), 'session_required', 'the id from before the change is ended');
      assert.equal((await viewer.call('GET', '/dashboard/api/test/webhooks')).status, 200, 'a sender reads webhooks');

      // Removal: both tabs' sessions end; the next request is refused, sign-in fails.
      const removed = await owner.call('DELETE', `/dashboard/api/members/${viewer.userId}`);
      assert.equal(removed.status, 200, removed.body);
      assert.equal(errorCode(await viewer.call('GET', '/dashboard/api/test/forms')), 'session_required');
      assert.equal(errorCode(await otherTab.call('GET', '/dashboard/api/session')), 'session_required');
      assert.equal(errorCode(await visitor(h).call('POST', '/dashboard/api/login', { json: { email: viewer.email, password: PASSWORD } })), 'login_failed');
      assert.deepEqual((await members(owner)).data.map((m) => m.email), [owner.email]);
      const sessions = await h.deps.domain.db.selectFrom('sessions').select('token_hash').where('user_id', '=', viewer.userId).execute();
      assert.deepEqual(sessions, []);
    });

    it('an account keeps an owner: the only owner cannot be demoted or removed; admins do not touch owners; ownership is handed on by the owner', async () => {
      const owner = await signedUp(h);
      const admin = await joinedMember(h, owner, 'admin');
      const sender = await joinedMember(h, owner, 'sender');
      const ownerId = (await members(owner)).data.find((m) => m.email === owner.email)!.id;

      assert.equal(errorCode(await owner.call('PATCH', `/dashboard/api/members/${ownerId}`, { json: { role: 'admin' } })), 'parameter_invalid');
      assert.equal(errorCode(await owner.call('DELETE', `/dashboard/api/members/${ownerId}`)), 'parameter_invalid');
      assert.equal(errorCode(await admin.call('DELETE', `/dashboard/api/members/${ownerId}`)), 'permission_denied');
      assert.equal(errorCode(await admin.call('PATCH', `/dashboard/api/members/${ownerId}`, { json: { role: 'viewer' } })), 'permission_denied');
      assert.equal(errorCode(await admin.call('PATCH', `/dashboard/api/members/${sender.userId}`, { json: { role: 'owner' } })), 'permission_denied');
      assert.equal(errorCode(await admin.call('PATCH', `/dashboard/api/members/${sender.userId}`, { json: { role: 'boss' } })), 'parameter_invalid');
      assert.equal((await admin.call('PATCH', `/dashboard/api/members/${sender.userId}`, { json: { role: 'viewer' } })).status, 200);
      assert.equal(errorCode(await admin.call('POST', '/dashboard/api/members/transfer-ownership', { json: { user_id: sender.userId } })), 'permission_denied');

      const handed = await owner.call('POST', '/dashboard/api/members/transfer-ownership', { json: { user_id: admin.userId } });
      assert.equal(handed.status, 200, handed.body);
      const roles = Object.fromEntries(handed.json<Members>().data.map((m) => [m.email, m.role]));
      assert.deepEqual(roles, { [owner.email]: 'admin', [admin.email]: 'owner', [sender.email]: 'viewer' });
      // The former owner's next request runs as an admin; the new owner may now hand it back.
      assert.equal(errorCode(await owner.call('POST', '/dashboard/api/members/transfer-ownership', { json: { user_id: admin.userId } })), 'permission_denied');
      assert.equal((await admin.call('GET', '/dashboard/api/usage')).status, 200, 'the new owner sees the plan and usage');
    });

    it("another account's members, invitations and activity are not found", async () => {
      const a = await signedUp(h);
      const b = await signedUp(h);
      const aSender = await joinedMember(h, a, 'sender');
      await a.call('POST', '/dashboard/api/members/invitations', { json: { email: uniqueEmail('a-invitee'), role: 'viewer' } });
      const aInvitation = (await members(a)).invitations[0]!;
      for (const [method, url, json] of [
        ['PATCH', `/dashboard/api/members/${aSender.userId}`, { role: 'viewer' }],
        ['DELETE', `/dashboard/api/members/${aSender.userId}`, undefined],
        ['DELETE', `/dashboard/api/members/invitations/${aInvitation.id}`, undefined],
        ['POST', '/dashboard/api/members/transfer-ownership', { user_id: aSender.userId }],
      ] as const) {
        const res = await b.call(method, url, json ? { json } : {});
        assert.deepEqual([res.status, errorCode(res)], [404, 'resource_not_found'], `${method} ${url}`);
      }
      assert.deepEqual((await members(b)).data.map((m) => m.email), [b.email], 'B lists only its own');
      assert.deepEqual((await members(b)).invitations, []);
      const aEntries = (await a.call('GET', '/dashboard/api/activity')).json<{ data: Array<{ id: string }> }>().data;
      const bEntries = (await b.call('GET', '/dashboard/api/activity')).json<{ data: Array<{ id: string; target: string | null }> }>().data;
      assert.ok(bEntries.every((e) => !aEntries.some((x) => x.id === e.id)));
      assert.ok(bEntries.every((e) => e.target !== aSender.email));
      const cursor = await b.call('GET', `/dashboard/api/activity?starting_after=${aEntries[0]!.id}`);
      assert.equal(errorCode(cursor), 'parameter_invalid', "another account's entry is no cursor here");
      // A's member is still there, unchanged.
      assert.equal((await members(a)).data.find((m) => m.id === aSender.userId)?.role, 'sender');
    });

    it('two owners demoting or removing each other at the same moment leave the account an owner', async () => {
      for (let round = 0; round < 8; round++) {
        const a = await signedUp(h);
        const b = await joinedMember(h, a, 'owner');
        const aId = (await a.call('GET', '/dashboard/api/session')).json<{ user: { id: string } }>().user.id;
        const asOwner = (v: { email: string }) => ({ userId: null, email: v.email, ip: null, role: 'owner' as const });
        // Even rounds demote, odd rounds remove: each owner acts on the other at once.
        const results = await Promise.allSettled(round % 2 === 0
          ? [changeRole(h.deps.domain, a.accountId, asOwner(a), b.userId, 'admin'), changeRole(h.deps.domain, a.accountId, asOwner(b), aId, 'admin')]
          : [removeMember(h.deps.domain, a.accountId, asOwner(a), b.userId), removeMember(h.deps.domain, a.accountId, asOwner(b), aId)]);
        assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1, `round ${round}: exactly one of the two goes through`);
        const refused = results.find((r) => r.status === 'rejected');
        assert.match(String((refused as PromiseRejectedResult).reason), /owner/);
        const owners = await h.deps.database.db.selectFrom('users').select('id').where('account_id', '=', a.accountId).where('role', '=', 'owner').execute();
        assert.equal(owners.length, 1, `round ${round}: one owner left`);
      }
    });
  });
}
