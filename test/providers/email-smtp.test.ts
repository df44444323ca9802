import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSmtpEmailSender, smtpTransportOptions, describeSmtpError } from '../../src/providers/email/smtp-email-sender.js';
import { devEmailSender } from '../../src/providers/email/index.js';
import { startSmtpSink } from '../outbox/support/sending.js';

describe('SMTP e-mail provider', () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  before(async () => {
    sink = await startSmtpSink({ auth: { user: 'u@x.test', pass: 'p:ss/w@rd' } });
  });
  after(() => sink.close());

  it('reads SMTP_URL: scheme picks TLS and the default port, auth is percent-decoded', () => {
    assert.deepEqual(
      (({ host, port, secure, auth }) => ({ host, port, secure, auth }))(smtpTransportOptions('smtp://u%40x.test:p%3Ass%2Fw%40rd@mail.example.com:2525', 4)),
      { host: 'mail.example.com', port: 2525, secure: false, auth: { user: 'u@x.test', pass: 'p:ss/w@rd' } },
    );
    const tls = smtpTransportOptions('smtps://smtp.example.com', 4);
    assert.deepEqual([tls.port, tls.secure, 'auth' in tls], [465, true, false]);
    assert.equal(smtpTransportOptions('smtp://[::1]', 1).host, '::1');
    assert.equal(smtpTransportOptions('smtp://h', 1).port, 587);
    assert.equal(smtpTransportOptions('smtp://h', 6).maxConnections, 6);
  });

  it('sends both parts with our Message-ID (the sender’s domain) over an authenticated session', async () => {
    const sender = createSmtpEmailSender({ url: sink.url, from: 'Acme <no-reply@acme.example>' });
    try {
      const sent = await sender.send({ id: 'msg_ABC', to: 'ada@example.com', subject: 'Sign "X"', text: 'plain https://s/sign/t', html: '<p>html <a href="https://s/sign/t">x</a></p>' }, new AbortController().signal);
      assert.equal(sent.providerMessageId, '<msg_ABC@acme.example>');
      const mail = sink.received.at(-1)!;
      assert.equal(mail.parsed.messageId, '<msg_ABC@acme.example>');
      assert.equal(mail.parsed.subject, 'Sign "X"');
      assert.equal(mail.parsed.text?.trim(), 'plain https://s/sign/t');
      assert.match(String(mail.parsed.html), /<a href="https:\/\/s\/sign\/t">x<\/a>/);
      assert.deepEqual(sink.logins, ['u@x.test']);
    } finally {
      sender.close();
    }
  });

  it('wrong credentials fail the send with the server’s reply', async () => {
    const sender = createSmtpEmailSender({ url: sink.url.replace('p%3Ass', 'nope'), from: 'a@b.example' });
    try {
      await assert.rejects(sender.send({ id: 'msg_1', to: 'a@b.example', subject: 's', text: 't', html: 'h' }, new AbortController().signal), /mail server refused the message: 535/);
    } finally {
      sender.close();
    }
  });

  it('describes failures as sentences: a refusal quotes the server, an outage says it could not be reached', () => {
    assert.equal(describeSmtpError(Object.assign(new Error('x'), { responseCode: 550, response: '550 5.1.1 No such user ' })), 'The mail server refused the message: 550 5.1.1 No such user');
    assert.equal(describeSmtpError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ESOCKET' })), 'The mail server could not be reached: connect ECONNREFUSED 127.0.0.1:1');
    assert.equal(describeSmtpError(new Error('boom')), 'Sending the e-mail failed: boom');
  });

  it('the dev sender sends nothing and reports the dev transport', async () => {
    const before = sink.received.length;
    assert.deepEqual(await devEmailSender.send({ id: 'm', to: 'a@b', subject: 's', text: 't', html: 'h' }, new AbortController().signal), { providerMessageId: null });
    assert.equal(devEmailSender.transport, 'dev');
    assert.equal(sink.received.length, before);
  });
});
