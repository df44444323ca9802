import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { verifyWebhook, WebhookVerificationError } from '../../clients/typescript/src/index.js';
import { signatureHeader } from '../../src/domain/webhooks/signature.js';

const SECRET = 'whsec_' + 'ab'.repeat(32);
const OLD = 'whsec_' + 'cd'.repeat(32);
const BODY = Buffer.from(JSON.stringify({ object: 'event', id: 'evt_000000000000000000000001', type: 'form.signed', created_at: '2026-01-01T00:00:00.000Z', mode: 'test', data: { object: { object: 'form', id: 'form_x', name: 'Zoë ✓' } } }));
const T = 1_767_225_600;
const at = (seconds: number) => ({ now: new Date(seconds * 1000) });
const hmac = (secret: string, t: number, body: Buffer) => createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');

describe('verifyWebhook', () => {
  it('accepts a good signature over the raw bytes and returns the typed Event', () => {
    const event = verifyWebhook(BODY, `t=${T},v1=${hmac(SECRET, T, BODY)}`, SECRET, at(T));
    assert.equal(event.type, 'form.signed');
    assert.equal(event.id, 'evt_000000000000000000000001');
    assert.equal(verifyWebhook(BODY.toString('utf8'), `t=${T},v1=${hmac(SECRET, T, BODY)}`, SECRET, at(T)).id, event.id, 'a string body works too');
  });

  it("accepts the server's own header (signature.ts) and Stripe-style multiple v1 during a rotation", () => {
    const header = signatureHeader(BODY, [SECRET, OLD], T);
    assert.equal(verifyWebhook(BODY, header, SECRET, at(T)).type, 'form.signed');
    assert.equal(verifyWebhook(BODY, header, OLD, at(T)).type, 'form.signed');
    assert.equal(verifyWebhook(BODY, signatureHeader(BODY, [SECRET], T), [OLD, SECRET], at(T)).type, 'form.signed', 'several secrets on the receiving side');
  });

  it('refuses a tampered body, a wrong secret and a signature for another timestamp', () => {
    const good = `t=${T},v1=${hmac(SECRET, T, BODY)}`;
    const tampered = Buffer.from(BODY.toString().replace('form.signed', 'form.sent__'));
    assert.throws(() => verifyWebhook(tampered, good, SECRET, at(T)), WebhookVerificationError);
    assert.throws(() => verifyWebhook(Buffer.concat([BODY, Buffer.from(' ')]), good, SECRET, at(T)), WebhookVerificationError, 'one added byte');
    assert.throws(() => verifyWebhook(BODY, good, OLD, at(T)), WebhookVerificationError);
    assert.throws(() => verifyWebhook(BODY, `t=${T + 1},v1=${hmac(SECRET, T, BODY)}`, SECRET, at(T)), WebhookVerificationError);
    assert.throws(() => verifyWebhook(BODY, good, SECRET.slice(6), at(T)), WebhookVerificationError, 'the key is the whole string, prefix included');
  });

  it('refuses stale and future timestamps beyond the tolerance, both ways, and accepts at the edge', () => {
    const good = `t=${T},v1=${hmac(SECRET, T, BODY)}`;
    assert.doesNotThrow(() => verifyWebhook(BODY, good, SECRET, at(T + 300)));
    assert.doesNotThrow(() => verifyWebhook(BODY, good, SECRET, at(T - 300)));
    assert.throws(() => verifyWebhook(BODY, good, SECRET, at(T + 301)), /old/);
    assert.throws(() => verifyWebhook(BODY, good, SECRET, at(T - 301)), /future/);
    assert.doesNotThrow(() => verifyWebhook(BODY, good, SECRET, { ...at(T + 3000), toleranceSeconds: 3600 }));
    assert.throws(() => verifyWebhook(BODY, good, SECRET, { ...at(T + 11), toleranceSeconds: 10 }));
  });

  it('tolerates extra spaces and unknown schemes; refuses headers without t or v1', () => {
    const v1 = hmac(SECRET, T, BODY);
    assert.doesNotThrow(() => verifyWebhook(BODY, ` t=${T} , v0=deadbeef, v1=${'0'.repeat(64)} ,  v1=${v1} , x=1`, SECRET, at(T)));
    assert.throws(() => verifyWebhook(BODY, `t=${T},v0=${v1}`, SECRET, at(T)), /no v1/);
    assert.throws(() => verifyWebhook(BODY, `v1=${v1}`, SECRET, at(T)), /no t=/);
    assert.throws(() => verifyWebhook(BODY, `t=${T},t=${T},v1=${v1}`, SECRET, at(T)), /exactly one/);
    assert.throws(() => verifyWebhook(BODY, `t=abc,v1=${v1}`, SECRET, at(T)), WebhookVerificationError);
    assert.throws(() => verifyWebhook(BODY, `t=${T},v1=${v1.toUpperCase()}`, SECRET, at(T)), WebhookVerificationError, 'hex is lower-case');
    assert.throws(() => verifyWebhook(BODY, undefined, SECRET, at(T)), /missing/);
    assert.throws(() => verifyWebhook(BODY, '', SECRET, at(T)), /missing/);
    assert.throws(() => verifyWebhook(BODY, `t=${T},v1=${v1}`, [], at(T)), /No signing secret/);
  });
});
