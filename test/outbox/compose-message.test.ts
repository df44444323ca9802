import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { composeMessage, formatExpiry } from '../../src/domain/sending/compose-message.js';

const base = {
  to: 'ada@example.com',
  recipientName: 'Ada <Lovelace>',
  formName: 'Lease "A" & <b>annex</b>',
  accountName: 'Acme\r\nBcc: victim@example.com',
  signingUrl: 'https://sign.example.com/sign/tok_"x"&y',
  expiresAt: '2026-12-24T14:05:00.000Z',
};

describe('composeMessage', () => {
  it('e-mail: a one-line subject naming who asks and the form, even when the names hold line breaks', () => {
    const m = composeMessage({ ...base, channel: 'email' });
    assert.equal(m.subject, 'Acme Bcc: victim@example.com asks you to sign "Lease "A" & <b>annex</b>"');
    assert.doesNotMatch(m.subject ?? '', /[\r\n]/);
  });

  it('e-mail: the plain part greets by name, gives the link, the expiry and why it was sent', () => {
    const m = composeMessage({ ...base, channel: 'email' });
    assert.equal(
      m.text,
      [
        'Hello Ada <Lovelace>,',
        '',
        'Acme Bcc: victim@example.com asks you to review and sign "Lease "A" & <b>annex</b>".',
        '',
        `Open the form: ${base.signingUrl}`,
        '',
        'This link works until 24 December 2026, 14:05 UTC.',
        '',
        'You received this e-mail because Acme Bcc: victim@example.com sent "Lease "A" & <b>annex</b>" to ada@example.com through Formsign. If you were not expecting it, you can ignore it.',
        '',
      ].join('\n'),
    );
  });

  it('e-mail: the HTML part escapes every value and has the link as a button and as text', () => {
    const html = composeMessage({ ...base, channel: 'email' }).html ?? '';
    assert.ok(!html.includes('<b>annex</b>') && !html.includes('<Lovelace>'), 'no markup from values');
    assert.ok(html.includes('Lease &quot;A&quot; &amp; &lt;b&gt;annex&lt;/b&gt;'));
    assert.ok(html.includes('Hello Ada &lt;Lovelace&gt;,'));
    const href = 'href="https://sign.example.com/sign/tok_&quot;x&quot;&amp;y"';
    assert.equal(html.split(href).length - 1, 2, 'button and written-out link');
    assert.match(html, />Review and sign</);
    assert.match(html, /This link works until 24 December 2026, 14:05 UTC\./);
  });

  it('e-mail without a name or an expiry still reads well', () => {
    const m = composeMessage({ ...base, channel: 'email', recipientName: null, expiresAt: null });
    assert.match(m.text, /^Hello,\n/);
    assert.doesNotMatch(m.text, /works until/);
    assert.doesNotMatch(m.html ?? '', /works until/);
  });

  it('SMS: short — who asks, the form, the link; long names are clipped, never the link', () => {
    const m = composeMessage({ ...base, channel: 'sms', to: '+14155550100', accountName: 'Acme', formName: 'NDA' });
    assert.deepEqual(m, { channel: 'sms', text: `Acme asks you to sign "NDA": ${base.signingUrl}` });
    const long = composeMessage({ ...base, channel: 'sms', accountName: 'A'.repeat(100), formName: 'F'.repeat(200) });
    assert.ok(long.text.endsWith(`": ${base.signingUrl}`));
    assert.ok(long.text.length <= 40 + 60 + base.signingUrl.length + 25, long.text);
    assert.equal(long.subject, undefined);
  });

  it('formats the expiry the same for every reader (UTC, no locale)', () => {
    assert.equal(formatExpiry('2026-01-05T00:00:00.000Z'), '5 January 2026, 00:00 UTC');
  });
});
