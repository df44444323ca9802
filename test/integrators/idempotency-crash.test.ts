import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccount } from '../../src/domain/accounts/manage-accounts.js';
import { createApiKey } from '../../src/domain/keys/manage-keys.js';
import { DIALECTS } from '../harness.js';
import { processStore, startChild, waitFor, type Child } from '../outbox/support/processes.js';
import { seedTemplate } from '../shared/seed.js';

// A server process answers 201 to a POST with an Idempotency-Key and is SIGKILLed at once. The answer
// was committed with the form, so a server started afterwards replays it, byte for byte, and the
// retry creates nothing.

async function serve(env: Record<string, string>): Promise<{ server: Child; base: string }> {
  const server = startChild(['--import', 'tsx', 'src/main.ts', 'serve'], { ...env, WORKER: 'off', PORT: '0', HOST: '127.0.0.1' });
  let base = '';
  await waitFor('the server to listen', () => {
    base = /http:\/\/127\.0\.0\.1:(\d+)/.exec(`${server.stdout()}\n${server.stderr()}`)?.[0] ?? '';
    return base !== '';
  }, 60_000).catch((e: unknown) => {
    server.proc.kill('SIGKILL');
    throw new Error(`${String(e)}; server said: ${server.stdout()} ${server.stderr()}`);
  });
  return { server, base };
}

for (const dialect of DIALECTS) {
  describe(`an idempotent answer survives a crash of the server (${dialect})`, () => {
    let store: Awaited<ReturnType<typeof processStore>>;
    let key: string;
    let accountId: string;
    let templateId: string;

    before(async () => {
      store = await processStore(dialect, 'idemcrash');
      const account = await createAccount(store.deps.domain, { name: 'Crash Test Ltd', plan: 'paid' });
      accountId = account.id;
      key = (await createApiKey(store.deps.domain, { accountId, mode: 'test' })).key;
      templateId = await seedTemplate(store.asHarness, { accountId, mode: 'test' }, 'Lease', new Date().toISOString());
    });
    after(() => store.drop());

    it('SIGKILL right after the 201: after a restart the same key replays the stored answer', async (t) => {
      const body = JSON.stringify({ template_id: templateId, prefill: { full_name: 'Ada', unknown_key: 'x' } });
      const post = (base: string) => fetch(`${base}/api/v1/forms`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'crash-1' }, body });

      const first = await serve(store.env);
      t.after(() => void first.server.proc.kill('SIGKILL'));
      const created = await post(first.base);
      const createdBody = Buffer.from(await created.arrayBuffer());
      assert.equal(created.status, 201, createdBody.toString());
      first.server.proc.kill('SIGKILL');
      assert.equal(await first.server.exited, null, 'killed, not exited');

      const second = await serve(store.env);
      t.after(() => void second.server.proc.kill('SIGKILL'));
      const replayed = await post(second.base);
      const replayedBody = Buffer.from(await replayed.arrayBuffer());
      assert.equal(replayed.status, 201);
      assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
      assert.ok(replayedBody.equals(createdBody), 'the same bytes');
      assert.equal(replayed.headers.get('x-service-prefill-unmatched'), created.headers.get('x-service-prefill-unmatched'));
      assert.equal(replayed.headers.get('content-type'), created.headers.get('content-type'));
      second.server.proc.kill('SIGTERM');
      await second.server.exited;

      const forms = await store.deps.database.db.selectFrom('forms').select('id').where('account_id', '=', accountId).execute();
      assert.deepEqual(forms.map((f) => f.id), [JSON.parse(createdBody.toString()).id], 'one form');
    });
  });
}
