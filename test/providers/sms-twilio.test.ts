import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createTwilioSmsSender, SmsGatewayError } from '../../src/providers/sms/index.js';
import { startTwilioServer } from '../outbox/support/twilio.js';

const SID = 'AC00000000000000000000000000000001';
const never = () => new AbortController().signal;

describe('Twilio-compatible SMS provider', () => {
  let ok: Awaited<ReturnType<typeof startTwilioServer>>;
  let reply: { status: number; body: unknown } = { status: 201, body: {} };
  before(async () => {
    ok = await startTwilioServer(() => reply);
  });
  after(() => ok.close());

  it('POSTs the form fields with basic auth to the account’s Messages.json and returns the sid', async () => {
    reply = { status: 201, body: {} };
    const sms = createTwilioSmsSender({ baseUrl: `${ok.url}/`, accountSid: SID, authToken: 's3cret', from: '+15005550006' });
    const sent = await sms.send({ to: '+14155550100', body: 'Acme asks you to sign "NDA": https://x/sign/t' }, never());
    assert.match(sent.providerMessageId ?? '', /^SM\d{32}$/);
    const r = ok.requests.at(-1)!;
    assert.deepEqual(
      { method: r.method, path: r.path, auth: r.authorization, type: r.contentType, form: r.form },
      {
        method: 'POST',
        path: `/2010-04-01/Accounts/${SID}/Messages.json`,
        auth: `Basic ${Buffer.from(`${SID}:s3cret`).toString('base64')}`,
        type: 'application/x-www-form-urlencoded',
        form: { To: '+14155550100', From: '+15005550006', Body: 'Acme asks you to sign "NDA": https://x/sign/t' },
      },
    );
  });

  it('a Messaging Service sid as sender goes in MessagingServiceSid', async () => {
    const mg = 'MG0123456789abcdef0123456789abcdef';
    await createTwilioSmsSender({ baseUrl: ok.url, accountSid: SID, authToken: 't', from: mg }).send({ to: '+14155550100', body: 'b' }, never());
    assert.deepEqual(ok.requests.at(-1)?.form, { To: '+14155550100', MessagingServiceSid: mg, Body: 'b' });
  });

  it('Twilio’s error JSON is a failure that keeps its code, status and message', async () => {
    reply = { status: 401, body: { code: 20003, message: 'Authenticate', more_info: 'https://www.twilio.com/docs/errors/20003', status: 401 } };
    const sms = createTwilioSmsSender({ baseUrl: ok.url, accountSid: SID, authToken: 'wrong', from: '+15005550006' });
    await assert.rejects(sms.send({ to: '+14155550100', body: 'b' }, never()), (e: unknown) => {
      assert.ok(e instanceof SmsGatewayError);
      assert.deepEqual([e.status, e.code, e.message], [401, '20003', 'The SMS gateway refused the message (HTTP 401, error 20003): Authenticate']);
      return true;
    });
  });

  it('a 2xx without a sid is not taken for success', async () => {
    const server = http.createServer((_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const sms = createTwilioSmsSender({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, accountSid: SID, authToken: 't', from: '+1' });
      await assert.rejects(sms.send({ to: '+14155550100', body: 'b' }, never()), /answered without a message sid/);
    } finally {
      server.close();
    }
  });

  it('an unreachable gateway, and a stopped attempt, fail with a sentence', async () => {
    const sms = createTwilioSmsSender({ baseUrl: 'http://127.0.0.1:1', accountSid: SID, authToken: 't', from: '+1' });
    await assert.rejects(sms.send({ to: '+14155550100', body: 'b' }, never()), /^SmsGatewayError: The SMS gateway could not be reached/);
    const stalled = http.createServer(() => undefined);
    await new Promise<void>((r) => stalled.listen(0, '127.0.0.1', r));
    try {
      const slow = createTwilioSmsSender({ baseUrl: `http://127.0.0.1:${(stalled.address() as AddressInfo).port}`, accountSid: SID, authToken: 't', from: '+1' });
      const abort = new AbortController();
      setTimeout(() => abort.abort(), 50);
      await assert.rejects(slow.send({ to: '+14155550100', body: 'b' }, abort.signal), /could not be reached/);
    } finally {
      stalled.closeAllConnections();
      stalled.close();
    }
  });
});
