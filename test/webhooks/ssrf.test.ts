import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createWebhookSender, forbiddenAddressReason, type Resolver } from '../../src/providers/webhook-http/index.js';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';
import { startReceiver, waitFor } from './support/receiver.js';
import { deliveriesOf } from './support/webhooks.js';

// Connection attempts in these tests only ever go to loopback (the receiver): a guard that failed
// would reach the test's own receiver, which the assertions see, and never another network.

describe('forbidden address ranges', () => {
  it('refuses every special-purpose range, in every spelling, and passes public addresses', () => {
    const refused = [
      '0.0.0.0', '0.1.2.3', '10.0.0.1', '10.255.255.255', '100.64.0.1', '100.127.255.254', '127.0.0.1', '127.1.2.3', '169.254.169.254', '169.254.0.1',
      '172.16.0.1', '172.31.255.255', '192.0.0.8', '192.0.2.1', '192.88.99.1', '192.168.0.1', '198.18.0.1', '198.19.255.255', '198.51.100.7', '203.0.113.9',
      '224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255',
      '::', '::1', '[::1]', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe', '::ffff:10.0.0.1', '::127.0.0.1',
      '64:ff9b::a00:1', '100::1', '2001:db8::1', '2002:7f00:1::', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', 'fec0::1', 'ff02::1',
    ];
    for (const a of refused) assert.ok(forbiddenAddressReason(a), `${a} is refused`);
    for (const a of ['8.8.8.8', '1.1.1.1', '93.184.215.14', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) assert.equal(forbiddenAddressReason(a), null, `${a} is public`);
    // The URL parser turns decimal, octal and hex IPv4 into the dotted form the guard judges.
    for (const url of ['http://2130706433/', 'http://0x7f000001/', 'http://0177.0.0.1/', 'http://0x7f.1/', 'http://127.1/', 'http://[::ffff:127.0.0.1]/']) {
      assert.ok(forbiddenAddressReason(new URL(url).hostname), url);
    }
    assert.equal(forbiddenAddressReason('example.com'), 'not an IP address');
  });
});

describe('the sender checks the address it connects to', () => {
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    rx = await startReceiver();
  });
  after(() => rx.close());

  const post = (sender: ReturnType<typeof createWebhookSender>, url: string) => sender.post({ url, headers: { 'content-type': 'application/json' }, body: Buffer.from('{}') });

  it('literal loopback addresses, in every spelling, are refused before connecting', async () => {
    const sender = createWebhookSender({ allowPrivateNetworks: false });
    try {
      for (const host of ['127.0.0.1', '2130706433', '0x7f.0.0.1', '0177.0.0.1', '127.1', '[::ffff:127.0.0.1]', 'localhost']) {
        const r = await post(sender, `http://${host}:${rx.port}/hook`);
        assert.equal(r.ok, false, host);
        assert.ok(!r.ok && r.refused, `${host}: ${!r.ok ? r.error : ''}`);
      }
      assert.equal(rx.received.length, 0, 'nothing reached the receiver');
    } finally {
      sender.close();
    }
  });

  it('a name resolving to loopback (a custom resolver: DNS rebinding) is refused on every attempt; allowed when the operator allows private networks', async () => {
    let answer = '93.184.215.14';
    const resolver: Resolver = async () => [{ address: answer, family: 4 }];
    const sender = createWebhookSender({ allowPrivateNetworks: false, resolver });
    try {
      assert.equal(await sender.checkHost('hooks.example.test'), null, 'at registration the name looked public');
      answer = '127.0.0.1';
      assert.match((await sender.checkHost('hooks.example.test'))!, /loopback/);
      for (let i = 0; i < 2; i++) {
        const r = await post(sender, `http://hooks.example.test:${rx.port}/hook`);
        assert.ok(!r.ok && r.refused && /127\.0\.0\.1 is in the loopback range/.test(r.error), JSON.stringify(r));
      }
      answer = '::1';
      const v6 = await post(sender, `http://hooks.example.test:${rx.port}/hook`);
      assert.ok(!v6.ok && v6.refused);
      assert.equal(rx.received.length, 0);
    } finally {
      sender.close();
    }
    const open = createWebhookSender({ allowPrivateNetworks: true, resolver: async () => [{ address: '127.0.0.1', family: 4 }] });
    try {
      const r = await post(open, `http://hooks.example.test:${rx.port}/hook`);
      assert.ok(r.ok && r.status === 200, JSON.stringify(r));
      assert.equal(rx.received.length, 1);
    } finally {
      open.close();
    }
  });

  it('redirects are not followed and the timeout bounds a receiver that never answers', async () => {
    const slow = await startReceiver(() => ({ status: 200, delayMs: 5_000 }));
    const sender = createWebhookSender({ allowPrivateNetworks: true, timeoutMs: 300 });
    try {
      const started = Date.now();
      const r = await post(sender, slow.url);
      assert.ok(!r.ok && /within 0.3 s/.test(r.error), JSON.stringify(r));
      assert.ok(Date.now() - started < 2_000);
    } finally {
      sender.close();
      await slow.close();
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`SSRF guard end to end (${dialect})`, () => {
    let h: Harness;
    let rx: Awaited<ReturnType<typeof startReceiver>>;
    let answer = '93.184.215.14';
    before(async () => {
      rx = await startReceiver();
      h = await createHarness(dialect, { env: { WEBHOOK_RETRY_SCALE: '0.001' }, webhookResolver: async () => [{ address: answer, family: 4 }] });
      await h.deps.worker.start();
    });
    after(async () => {
      await h.close();
      await rx.close();
    });

    it('refuses at create a name that resolves to a private address, and at connect one that rebinds to loopback later', async () => {
      answer = '10.1.2.3';
      const refused = await h.request({ method: 'POST', url: '/api/v1/webhooks', as: h.actors.aTest, json: { url: 'https://internal.example.test/hook', events: ['form.created'] } });
      assert.equal(refused.status, 400);
      assert.equal(errorOf(refused).param, 'url');
      assert.match(errorOf(refused).message, /10\.1\.2\.3 is in the private range/);

      answer = '93.184.215.14';
      const created = await h.request({ method: 'POST', url: '/api/v1/webhooks', as: h.actors.aTest, json: { url: `http://rebind.example.test:${rx.port}/hook`, events: ['form.created'] } });
      assert.equal(created.status, 201, created.body);
      const w = created.json<{ id: string }>();
      answer = '127.0.0.1';
      const templateId = await seedTemplate(h, h.actors.aTest.partition, 'T', '2026-01-01T00:00:00.000Z');
      await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId } });
      await waitFor('two refused attempts', async () => ((await deliveriesOf(h, h.actors.aTest, w.id))[0]?.attempts ?? 0) >= 2);
      const [d] = await deliveriesOf(h, h.actors.aTest, w.id);
      assert.equal(rx.received.length, 0, 'the receiver on loopback was never reached');
      for (const a of d!.attempt_log) {
        assert.equal(a.status_code, null);
        assert.match(a.error!, /Refused to connect: rebind\.example\.test resolves to 127\.0\.0\.1 is in the loopback range/);
      }
    });
  });
}
