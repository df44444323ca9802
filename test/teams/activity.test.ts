import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sweepActivity, ACTIVITY_RETENTION_DAYS } from '../../src/domain/activity/sweep-activity.js';
import { ACTIVITY_COMMANDS } from '../../src/cli/activity-commands.js';
import { USER_COMMANDS } from '../../src/cli/user-commands.js';
import { SCHEDULED_JOBS } from '../../src/outbox/registry.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { FakeClock } from '../outbox/support/sending.js';
import { errorCode, PASSWORD, signedUp, uniqueEmail, visitor, type Visitor } from '../dashboard/support.js';
import { joinedMember } from './support.js';

// The account activity log (issue 39 item 5) on both dialects: each change and sign-in the issue names
// writes one entry (who, what, to what, from which address, when) in the change's own transaction;
// Settings → Activity lists them newest first with filters; `formsign accounts activity ID` prints
// them; entries older than a year are swept by the scheduled job.

const T0 = '2026-12-07T09:00:00.000Z';

interface Entry { id: string; kind: string; actor: { id: string | null; email: string | null }; target: string | null; ip: string | null; detail: Record<string, unknown> | null; created_at: string }

/** What a CLI handler printed. */
async function printed(run: () => Promise<void>): Promise<string> {
  // The very function put back afterwards (the test runner checks that it is).
  const write = process.stdout.write;
  let out = '';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  try {
    await run();
  } finally {
    process.stdout.write = write;
  }
  return out;
}

for (const dialect of DIALECTS) {
  describe(`account activity log (${dialect})`, () => {
    let h: Harness;
    let clock: FakeClock;
    before(async () => {
      clock = new FakeClock(Date.parse(T0));
      h = await createHarness(dialect, { clock, env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
    });
    after(() => h.close());

    const activity = async (v: Visitor, query = ''): Promise<Entry[]> => {
      const res = await v.call('GET', `/dashboard/api/activity${query}`);
      assert.equal(res.status, 200, res.body);
      return res.json<{ data: Entry[] }>().data;
    };

    it('records members, invitations, keys, webhooks, settings and sign-ins with who, what, from where; filters them', async () => {
      const owner = await signedUp(h, '10.9.0.1');
      const ownerId = (await owner.call('GET', '/dashboard/api/session')).json<{ user: { id: string } }>().user.id;
      // A wrong password for the owner's address, from elsewhere; then a good sign-in.
      const stranger = visitor(h, '10.9.0.66');
      assert.equal(errorCode(await stranger.call('POST', '/dashboard/api/login', { json: { email: owner.email, password: 'not the password' } })), 'login_failed');
      assert.equal(errorCode(await stranger.call('POST', '/dashboard/api/login', { json: { email: uniqueEmail('nobody'), password: 'whatever it is' } })), 'login_failed');
      clock.advance(1000);
      const again = visitor(h, '10.9.0.2');
      assert.equal((await again.call('POST', '/dashboard/api/login', { json: { email: owner.email, password: PASSWORD } })).status, 200);

      clock.advance(1000);
      const admin = await joinedMember(h, owner, 'admin');
      clock.advance(1000);
      const sender = await joinedMember(h, owner, 'sender');
      clock.advance(1000);
      assert.equal((await owner.call('PATCH', `/dashboard/api/members/${sender.userId}`, { json: { role: 'viewer' } })).status, 200);

      clock.advance(1000);
      const key = await admin.call('POST', '/dashboard/api/keys', { json: { mode: 'test', label: 'CI' } });
      assert.equal(key.status, 201, key.body);
      const made = key.json<{ id: string; key: string; display: string; created_by: string }>();
      assert.equal(made.created_by, admin.email);
      // The key's use shows in the list, with who made it.
      assert.equal((await h.app.inject({ method: 'GET', url: '/api/v1/templates', headers: { authorization: `Bearer ${made.key}` } })).statusCode, 200);
      let listed: { created_by: string | null; last_used_at: string | null } | undefined;
      for (let i = 0; i < 50 && !listed?.last_used_at; i++) {
        listed = (await owner.call('GET', '/dashboard/api/keys')).json<{ data: Array<{ id: string; created_by: string | null; last_used_at: string | null }> }>().data.find((k) => k.id === made.id);
        if (!listed?.last_used_at) await new Promise((r) => setTimeout(r, 20));
      }
      assert.deepEqual(listed, { ...listed, created_by: admin.email, last_used_at: new Date(clock.now()).toISOString() });
      clock.advance(1000);
      assert.equal((await admin.call('POST', `/dashboard/api/keys/${made.id}/revoke`)).status, 200);
      assert.equal((await admin.call('POST', `/dashboard/api/keys/${made.id}/revoke`)).status, 200, 'revoking again changes nothing');

      clock.advance(1000);
      const hook = await admin.call('POST', '/dashboard/api/test/webhooks', { json: { url: 'http://127.0.0.1:9/hook', events: ['form.signed'] } });
      assert.equal(hook.status, 201, hook.body);
      const hookId = hook.json<{ id: string }>().id;
      clock.advance(1000);
      assert.equal((await admin.call('POST', `/dashboard/api/test/webhooks/${hookId}/rotate-secret`)).status, 200);
      assert.equal(errorCode(await admin.call('POST', '/dashboard/api/test/webhooks/wh_doesnotexist/rotate-secret')), 'resource_not_found');
      // Through the API with a key: logged too, naming the key.
      const apiKey = await owner.call('POST', '/dashboard/api/keys', { json: { mode: 'test', label: 'server' } });
      const serverKey = apiKey.json<{ id: string; key: string; display: string }>();
      const viaApi = await h.app.inject({ method: 'POST', url: '/api/v1/webhooks', headers: { authorization: `Bearer ${apiKey.json<{ key: string }>().key}`, 'content-type': 'application/json' }, payload: JSON.stringify({ url: 'http://127.0.0.1:9/api-hook', events: ['form.sent'] }) });
      assert.equal(viaApi.statusCode, 201, viaApi.body);
      const apiEntry = (await activity(owner, '?kind=webhook.created')).find((e) => e.target === 'http://127.0.0.1:9/api-hook');
      assert.deepEqual([apiEntry?.actor, apiEntry?.detail], [{ id: null, email: null }, { mode: 'test', webhook_id: JSON.parse(viaApi.body).id, api_key: serverKey.id }]);
      clock.advance(1000);
      assert.equal((await owner.call('PUT', '/dashboard/api/settings/locale', { json: { locale: 'de' } })).status, 200);
      clock.advance(1000);
      assert.equal((await owner.call('DELETE', `/dashboard/api/members/${sender.userId}`)).status, 200);

      const entries = await activity(owner, '?limit=100');
      // Newest first; entries of one moment (a join and its sign-in) in any order among themselves.
      assert.deepEqual(entries.map((e) => e.created_at), entries.map((e) => e.created_at).sort().reverse());
      const seen = entries.map((e) => JSON.stringify([e.kind, e.actor.email, e.target]));
      assert.deepEqual(seen.sort(), [
        ['member.signed_in', owner.email, owner.email],
        ['member.sign_in_failed', null, owner.email],
        ['member.signed_in', owner.email, owner.email],
        ['member.invited', owner.email, admin.email],
        ['member.joined', admin.email, admin.email],
        ['member.signed_in', admin.email, admin.email],
        ['member.invited', owner.email, sender.email],
        ['member.joined', sender.email, sender.email],
        ['member.signed_in', sender.email, sender.email],
        ['member.role_changed', owner.email, sender.email],
        ['key.created', admin.email, made.display],
        ['key.revoked', admin.email, made.display],
        ['webhook.created', admin.email, 'http://127.0.0.1:9/hook'],
        ['webhook.rotated', admin.email, 'http://127.0.0.1:9/hook'],
        ['key.created', owner.email, serverKey.display],
        ['webhook.created', null, 'http://127.0.0.1:9/api-hook'],
        ['settings.changed', owner.email, 'locale'],
        ['member.removed', owner.email, sender.email],
      ].map((e) => JSON.stringify(e)).sort());
      const byKind = (k: string) => entries.filter((e) => e.kind === k);
      assert.deepEqual(byKind('member.sign_in_failed').map((e) => e.ip), ['10.9.0.66'], 'the failed sign-in with the address it came from');
      assert.deepEqual(byKind('member.signed_in').filter((e) => e.actor.email === owner.email).map((e) => [e.ip, e.detail?.['via']]).sort(), [['10.9.0.1', 'sign_up'], ['10.9.0.2', 'password']]);
      assert.deepEqual(byKind('member.role_changed')[0]!.detail, { from: 'sender', to: 'viewer' });
      assert.deepEqual(byKind('settings.changed')[0]!.detail, { locale: 'de' });
      assert.equal(byKind('member.invited')[0]!.ip, null, 'the use case called directly (support.ts) has no address');
      assert.ok(entries.every((e) => e.created_at >= T0));

      // Filters: what, who, when.
      assert.deepEqual((await activity(owner, '?kind=key.created')).map((e) => e.target).sort(), [made.display, serverKey.display].sort());
      assert.deepEqual([...new Set((await activity(owner, `?member=${admin.userId}`)).map((e) => e.actor.email))], [admin.email]);
      assert.equal((await activity(owner, `?member=${ownerId}&kind=member.signed_in`)).length, 2);
      assert.equal((await activity(owner, '?since=2026-12-08')).length, 0);
      assert.equal((await activity(owner, '?until=2026-12-07')).length, 18, 'a day is taken whole');
      assert.equal((await activity(owner, '?until=2026-12-06')).length, 0);
      const firstPage = await owner.call('GET', '/dashboard/api/activity?limit=5');
      assert.equal(firstPage.json<{ has_more: boolean }>().has_more, true);
      const next = await activity(owner, `?limit=5&starting_after=${firstPage.json<{ data: Entry[] }>().data[4]!.id}`);
      assert.deepEqual(next.map((e) => e.id), entries.slice(5, 10).map((e) => e.id));
      for (const bad of ['?kind=everything', '?since=yesterday', '?limit=0']) assert.equal(errorCode(await owner.call('GET', `/dashboard/api/activity${bad}`)), 'parameter_invalid', bad);
      // Only admins and owners read it.
      const viewer = await joinedMember(h, owner, 'viewer');
      assert.equal(errorCode(await viewer.call('GET', '/dashboard/api/activity')), 'permission_denied');

      // The operator's view: `formsign accounts activity ID`, and `users set-role` / `users remove` logged as the operator.
      clock.advance(1000);
      await printed(() => USER_COMMANDS['users set-role']!(h.deps, ['--email', viewer.email, '--role', 'sender'], true));
      const human = await printed(() => ACTIVITY_COMMANDS['accounts activity']!(h.deps, [owner.accountId, '--kind', 'member.role_changed'], false));
      const lines = human.trim().split('\n');
      assert.equal(lines.length, 2, human);
      assert.match(lines[0]!, new RegExp(`member\\.role_changed\\s+operator → ${viewer.email.replace(/[.]/g, '\\.')}  from=viewer to=sender$`));
      assert.match(lines[1]!, new RegExp(`member\\.role_changed\\s+${owner.email.replace(/[.]/g, '\\.')} → ${sender.email.replace(/[.]/g, '\\.')}  from 10\\.9\\.0\\.1  from=sender to=viewer$`));
      const json = JSON.parse(await printed(() => ACTIVITY_COMMANDS['accounts activity']!(h.deps, [owner.accountId, '--json', '--limit', '3'], true))) as { data: Entry[]; has_more: boolean };
      assert.equal(json.data.length, 3);
      assert.equal(json.has_more, true);
      clock.advance(1000);
      await printed(() => USER_COMMANDS['users remove']!(h.deps, ['--email', viewer.email], true));
      assert.deepEqual((await activity(owner, '?kind=member.removed')).map((e) => [e.actor.email, e.target]), [[null, viewer.email], [owner.email, sender.email]]);
    });

    it('a branding change is logged as a settings change, naming what changed (issue 39 review)', async () => {
      const owner = await signedUp(h, '10.9.0.7');
      clock.advance(1000);
      const res = await owner.call('PUT', '/dashboard/api/settings/branding', { json: { accent_color: '#1a5fb4', sender_name: 'Acme Legal' } });
      assert.equal(res.status, 200, res.body);
      const logged = await activity(owner, '?kind=settings.changed');
      assert.deepEqual(logged.map((e) => [e.actor.email, e.target, e.ip, e.detail]), [[owner.email, 'branding', '10.9.0.7', { changed: 'accent_color,sender_name' }]]);
    });

    it('another account sees none of it; entries older than a year are swept by the scheduled job', async () => {
      assert.ok(SCHEDULED_JOBS.some((j) => j.name === 'activity.sweep' && j.everyMs === 86_400_000), 'a daily scheduled job');
      const a = await signedUp(h);
      const b = await signedUp(h);
      assert.ok((await activity(b)).every((e) => e.actor.email === b.email));
      clock.advance((ACTIVITY_RETENTION_DAYS - 1) * 86_400_000);
      try {
        const late = visitor(h);
        assert.equal((await late.call('POST', '/dashboard/api/login', { json: { email: a.email, password: PASSWORD } })).status, 200);
        clock.advance(2 * 86_400_000);
        // A's sign-up is now older than a year; its later sign-in is not.
        await sweepActivity(h.deps.domain);
        const left = await activity(late);
        assert.deepEqual(left.map((e) => e.detail?.['via']), ['password']);
      } finally {
        clock.set(T0);
      }
    });
  });
}
