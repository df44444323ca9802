import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { composeCompletedCopy, composeReminder, composeSenderNotice, composeVoidNotice, senderDisplayName } from '../../src/domain/sending/compose-message.js';

// The completed copy and the sender's notices as composed (pure): what each says, in both parts, with
// every value escaped in the HTML and kept to one line in the subject.

const copy = { attached: false, url: 'https://sign.example.com/api/v1/files/pdf/tok"&x', urlExpiresAt: '2026-12-27T09:00:00.000Z' };
const hostile = { accountName: 'Acme\r\nBcc: victim@example.com', formName: 'Lease "A" & <b>annex</b>' };

describe('message kinds', () => {
  it('the sender display name is one line: "<account> via Formsign"', () => {
    assert.equal(senderDisplayName('Acme\r\nBcc: victim@example.com'), 'Acme Bcc: victim@example.com via Formsign');
    assert.equal(senderDisplayName(`${'A'.repeat(150)}`).length, 100 + ' via Formsign'.length);
  });

  it('completed copy, attached: says so, no link to follow; footer says who sent it and why', () => {
    const m = composeCompletedCopy({ ...hostile, channel: 'email', to: 'ada@example.com', recipientName: 'Ada', copy: { ...copy, attached: true } });
    assert.equal(m.subject, 'Your signed copy of "Lease "A" & <b>annex</b>"');
    assert.match(m.text, /^Hello Ada,\n\nEveryone has signed "Lease "A" & <b>annex<\/b>"\. The signed PDF is attached to this e-mail/);
    assert.doesNotMatch(m.text, /https?:/);
    assert.ok(m.text.trimEnd().endsWith('You received this e-mail because you signed "Lease "A" & <b>annex</b>", sent by Acme Bcc: victim@example.com to ada@example.com through Formsign.'));
    assert.ok(!(m.html ?? '').includes('<b>annex</b>'), 'no markup from values');
    assert.doesNotMatch(m.html ?? '', /href=/);
  });

  it('completed copy by link: the button and the written-out address, and when it stops working', () => {
    const m = composeCompletedCopy({ ...hostile, channel: 'email', to: 'ada@example.com', recipientName: null, copy });
    assert.match(m.text, /^Hello,\n/);
    assert.ok(m.text.includes(`Download the signed PDF: ${copy.url}`));
    assert.ok(m.text.includes('This link works until 27 December 2026, 09:00 UTC.'));
    assert.equal((m.html ?? '').split('href="https://sign.example.com/api/v1/files/pdf/tok&quot;&amp;x"').length - 1, 2);
  });

  it('completed copy by SMS: who, what, the link (never clipped)', () => {
    const m = composeCompletedCopy({ channel: 'sms', to: '+14155550100', recipientName: 'Ada', accountName: 'Acme', formName: 'F'.repeat(200), copy });
    assert.equal(m.subject, undefined);
    assert.equal(m.html, undefined);
    assert.ok(m.text.startsWith('Your signed copy of "FFF'));
    assert.ok(m.text.endsWith(`" from Acme: ${copy.url}`));
  });

  it('notices: completed (signers, attached or link), declined (reason or none), viewed; subjects one line', () => {
    const base = { ...hostile, to: 'office@acme.test', formId: 'form_1' };
    const done = composeSenderNotice({ ...base, kind: 'completed', copy: { ...copy, attached: true }, signers: ['Ada', 'Bob\nSmith'] });
    assert.equal(done.subject, 'Completed: "Lease "A" & <b>annex</b>"');
    assert.match(done.text, /^Everyone has signed "Lease "A" & <b>annex<\/b>": Ada, Bob Smith\.\n\nThe sealed PDF is attached to this e-mail\./);
    assert.ok(done.text.trimEnd().endsWith('You received this e-mail because office@acme.test is the notification address of Acme Bcc: victim@example.com on Formsign (form form_1).'));
    const byLink = composeSenderNotice({ ...base, kind: 'completed', copy, signers: [] });
    assert.ok(byLink.text.includes(`Download the signed PDF: ${copy.url}`));
    const declined = composeSenderNotice({ ...base, kind: 'declined', recipient: 'Eve\r\nX', reason: null, at: '2026-02-03T04:05:00.000Z' });
    assert.equal(declined.subject, 'Declined: Eve X declined to sign "Lease "A" & <b>annex</b>"');
    assert.match(declined.text, /Eve X declined to sign "Lease "A" & <b>annex<\/b>" on 3 February 2026, 04:05 UTC\. The form is closed; its links no longer work\.\n\nThey gave no reason\./);
    const viewed = composeSenderNotice({ ...base, kind: 'viewed', recipient: 'ada@example.com', at: '2026-02-03T04:05:00.000Z' });
    assert.equal(viewed.subject, 'Viewed: ada@example.com opened "Lease "A" & <b>annex</b>"');
    for (const m of [done, byLink, declined, viewed]) {
      assert.doesNotMatch(m.subject ?? '', /[\r\n]/);
      assert.ok(!(m.html ?? '').includes('<b>annex</b>'));
      assert.equal(m.channel, 'email');
    }
  });

  it('reminder and void: the invitation\'s layout, said as a reminder or a withdrawal', () => {
    const invite = { ...hostile, channel: 'email' as const, to: 'ada@example.com', recipientName: 'Ada', signingUrl: 'https://sign.example.com/sign/t', expiresAt: null };
    const r = composeReminder(invite);
    assert.equal(r.subject, 'Reminder: Acme Bcc: victim@example.com asks you to sign "Lease "A" & <b>annex</b>"');
    assert.match(r.text, /^Hello Ada,\n\nA reminder: Acme Bcc: victim@example\.com is still waiting for you to review and sign "Lease "A" & <b>annex<\/b>"\.\n\nOpen the form: https:\/\/sign\.example\.com\/sign\/t\n/);
    assert.equal((r.html ?? '').split('href="https://sign.example.com/sign/t"').length - 1, 2);
    assert.equal(composeReminder({ ...invite, channel: 'sms', accountName: 'Acme', formName: 'NDA' }).text, 'Reminder: Acme asks you to sign "NDA": https://sign.example.com/sign/t');
    const v = composeVoidNotice({ ...hostile, channel: 'email', to: 'ada@example.com', recipientName: null, reason: 'Wrong\nrent' });
    assert.equal(v.subject, 'Withdrawn: "Lease "A" & <b>annex</b>" from Acme Bcc: victim@example.com');
    assert.match(v.text, /withdrew the request to sign "Lease "A" & <b>annex<\/b>"\. The signing link no longer works and there is nothing more to do\.\n\nReason given: Wrong rent\n/);
    assert.doesNotMatch(v.html ?? '', /href=/);
    assert.equal(composeVoidNotice({ ...hostile, channel: 'sms', to: '+1', recipientName: null, reason: null, accountName: 'Acme', formName: 'NDA' }).text, 'Acme withdrew "NDA": there is nothing to sign any more.');
  });

  it('reminder and void in the recipient\'s language: German words, an Arabic page laid out right to left', () => {
    const invite = { channel: 'email' as const, to: 'ada@example.com', recipientName: 'Ada', formName: 'Mietvertrag', accountName: 'Acme', signingUrl: 'https://sign.example.com/sign/t', expiresAt: '2026-12-01T10:00:00.000Z' };
    const r = composeReminder({ ...invite, locale: 'de' });
    assert.equal(r.subject, 'Erinnerung: Acme bittet Sie, „Mietvertrag“ zu unterzeichnen');
    assert.match(r.text, /^Hallo Ada,\n\nZur Erinnerung: Acme wartet noch darauf, dass Sie „Mietvertrag“ prüfen und unterzeichnen\.\n/);
    assert.match(r.text, /1\. Dezember 2026/);
    assert.match(r.html ?? '', /<html lang="de" dir="ltr">/);
    const v = composeVoidNotice({ ...invite, recipientName: null, reason: 'خطأ', locale: 'ar' });
    assert.match(v.subject ?? '', /^مسحوب: «Mietvertrag» من Acme$/);
    assert.match(v.text, /السبب المذكور: خطأ/);
    assert.match(v.html ?? '', /<html lang="ar" dir="rtl">/);
    assert.equal(composeVoidNotice({ ...invite, channel: 'sms', to: '+1', recipientName: null, reason: null, locale: 'de' }).text, 'Acme hat „Mietvertrag“ zurückgezogen: Es gibt nichts mehr zu unterzeichnen.');
  });
});
