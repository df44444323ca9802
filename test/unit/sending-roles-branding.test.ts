import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accentFor, contrastOnWhite, MIN_CONTRAST, parseHexColour, readsOnPages } from '../../src/lib/colour-contrast.js';
import { sanitiseSvg } from '../../src/domain/branding/sanitise-svg.js';
import { AppError } from '../../src/domain/errors.js';
import { nextInTurn, remindable } from '../../src/domain/lifecycle/lifecycle-rules.js';
import { composeMessage } from '../../src/domain/sending/compose-message.js';
import { normaliseMessage, normaliseRecipients, refuseFieldsOfNonSigners } from '../../src/domain/sending/recipient-rules.js';
import { isComplete, RECIPIENT_ROLES } from '../../src/domain/sending/recipient-roles.js';
import { loadOpenApiDocument } from '../../src/http/openapi.js';

// Issue 42's pure rules: recipient roles (who acts in turn, who blocks completion), the sender's
// message, a sanitised SVG logo and an accent colour brought to 4.5:1 on white.

type R = { role: 'signer' | 'approver' | 'cc' | 'viewer'; status: 'waiting' | 'sent' | 'viewed' | 'signed' | 'approved' | 'declined'; signer: number; position: number };
const r = (role: R['role'], status: R['status'], signer: number): R => ({ role, status, signer, position: signer - 1 });

describe('recipient roles', () => {
  it('the list is the contract\'s (openapi.yaml RecipientRole)', () => {
    const doc = loadOpenApiDocument() as unknown as { components: { schemas: { RecipientRole: { enum: string[] } } } };
    assert.deepEqual(doc.components.schemas.RecipientRole.enum, [...RECIPIENT_ROLES]);
  });

  it('complete when every signer and approver is done; cc and viewers never block', () => {
    assert.equal(isComplete([r('signer', 'signed', 1), r('approver', 'viewed', 2), r('cc', 'sent', 3)]), false);
    assert.equal(isComplete([r('signer', 'signed', 1), r('approver', 'approved', 2), r('cc', 'sent', 3), r('viewer', 'sent', 4)]), true);
    assert.equal(isComplete([r('cc', 'sent', 1)]), false, 'a form of copies alone is never complete');
  });

  it('the turn passes over a cc and comes to an approver after the signer, to a viewer after the approver', () => {
    const order = [r('signer', 'signed', 1), r('cc', 'sent', 2), r('approver', 'waiting', 3), r('viewer', 'waiting', 4)];
    assert.equal(nextInTurn(order)?.role, 'approver');
    order[2]!.status = 'approved';
    assert.equal(nextInTurn(order)?.role, 'viewer');
    assert.equal(remindable({ role: 'cc', status: 'sent' }), false, 'a cc is never reminded');
    assert.equal(remindable({ role: 'viewer', status: 'viewed' }), false, 'a viewer who opened it is done');
    assert.equal(remindable({ role: 'approver', status: 'viewed' }), true);
  });

  it('a non-signer on a slot with fields is refused with the contract\'s error, naming the role', () => {
    const incoming = normaliseRecipients([{ channel: 'email', email: 'a@example.com', role: 'approver' }]);
    assert.throws(() => refuseFieldsOfNonSigners([{ name: 'tenant_name', signer: 1 }], incoming, [1]), (e: unknown) => e instanceof AppError && e.code === 'parameter_invalid' && e.param === 'recipients[0].role' && /approver/.test(e.message) && /tenant_name/.test(e.message));
    assert.doesNotThrow(() => refuseFieldsOfNonSigners([{ name: 'tenant_name', signer: 1 }], incoming, [2]));
    assert.throws(() => normaliseRecipients([{ channel: 'email', email: 'a@example.com', role: 'boss' }]), (e: unknown) => e instanceof AppError && e.param === 'recipients[0].role');
  });
});

describe('the sender\'s message', () => {
  it('is at most 1,000 characters, keeps line breaks, and is escaped in the e-mail', () => {
    assert.equal(normaliseMessage('  Hi\r\nthere  ', 'message'), 'Hi\nthere');
    assert.throws(() => normaliseMessage('x'.repeat(1001), 'message'), (e: unknown) => e instanceof AppError && e.param === 'message');
    assert.throws(() => normaliseMessage('a\u0007b', 'message'), (e: unknown) => e instanceof AppError && e.code === 'parameter_invalid');
    const m = composeMessage({
      channel: 'email', to: 'a@example.com', recipientName: null, formName: 'Lease', accountName: 'Acme', signingUrl: 'https://x.test/sign/t', expiresAt: null,
      role: 'approver', message: 'Please <b>check</b> clause 4\nThanks', subject: 'Lease for you', brand: { name: 'Acme Homes', accent: '#0b5cad', logoUrl: 'https://x.test/brand/logo/a.svg' },
    });
    assert.equal(m.subject, 'Lease for you');
    assert.match(m.html!, /Please &lt;b&gt;check&lt;\/b&gt; clause 4\nThanks/);
    assert.doesNotMatch(m.html!, /<b>check/);
    assert.match(m.html!, /background:#0b5cad/);
    assert.match(m.html!, /<img src="https:\/\/x.test\/brand\/logo\/a.svg" alt="Acme Homes"/);
    assert.match(m.text, /> Please <b>check<\/b> clause 4\n> Thanks/);
    assert.match(m.text, /asks you to review "Lease" and approve or decline it/);
  });
});

describe('SVG logo sanitising', () => {
  it('drops scripts, event handlers, foreignObject and every external reference, keeping the drawing', () => {
    const hostile = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)">
<script>alert(2)</script><script xlink:href="https://evil.test/x.js"/>
<foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.test"></iframe></foreignObject>
<style>@import url(https://evil.test/a.css);</style>
<a href="javascript:alert(3)"><rect width="10" height="10" fill="#0b5cad" onclick="alert(4)"/></a>
<image href="https://evil.test/track.png" width="1" height="1"/>
<use xlink:href="https://evil.test/s.svg#x"/><use href="#dot"/>
<circle id="dot" cx="5" cy="5" r="2" fill="url(https://evil.test/g)" stroke="url(#grad)" style="fill:url(http://evil.test/p)"/>
<text x="1" y="9">&x;Acme</text>
</svg>`;
    const { svg, removed } = sanitiseSvg(hostile);
    for (const bad of [/script/i, /onload/i, /onclick/i, /foreignObject/i, /iframe/i, /evil\.test/, /javascript:/i, /@import/, /<a\b/, /<image/, /ENTITY/, /passwd/]) assert.doesNotMatch(svg, bad, `${bad} is gone: ${svg}`);
    assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.match(svg, /viewBox="0 0 10 10"/);
    assert.match(svg, /<use href="#dot"><\/use>/, 'a local reference stays');
    assert.match(svg, /stroke="url\(#grad\)"/);
    assert.match(svg, />&amp;x;Acme<\/text>/, 'the entity is not expanded: it stays as text');
    assert.ok(removed.some((x) => /onload/.test(x)) && removed.includes('<script>') && removed.includes('<foreignObject>'), removed.join(', '));
  });

  it('keeps no CSS: style attributes and <style> go, and a value with a CSS escape, image-set or @import is dropped (reported)', () => {
    const sneaky = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">
<style>@im\\70ort 'https://evil.test/a.css'; rect { fill: image-set('https://evil.test/i.png' 1x) }</style>
<rect width="10" height="10" style="fill:u\\72 l(https://evil.test/x)" fill="#0b5cad"/>
<circle cx="5" cy="5" r="2" style="fill:image-set('https://evil.test/c.png' 1x)" stroke="#123456"/>
<path d="M0 0" fill="u\\72 l(https://evil.test/y)" stroke="image-set('https://evil.test/z.png' 1x)"/>
<ellipse cx="1" cy="1" rx="1" ry="1" fill="@IMPORT 'https://evil.test/w'"/>
</svg>`;
    const { svg, removed } = sanitiseSvg(sneaky);
    for (const bad of [/style/i, /evil\.test/, /\\/, /image-set/i, /@im/i]) assert.doesNotMatch(svg, bad, `${bad} is gone: ${svg}`);
    assert.match(svg, /<rect width="10" height="10" fill="#0b5cad"><\/rect>/, 'the presentation attribute stays');
    assert.match(svg, /stroke="#123456"/);
    assert.ok(removed.includes('<style>'), removed.join(', '));
    assert.ok(removed.some((x) => /^style\b/.test(x)), removed.join(', '));
    assert.ok(removed.some((x) => /^fill\b.*external reference/.test(x)) && removed.some((x) => /^stroke\b/.test(x)), removed.join(', '));
  });

  it('a file whose root is not <svg> gives nothing', () => {
    assert.equal(sanitiseSvg('<html><svg></svg></html>').svg, '');
  });
});

describe('accent contrast', () => {
  it('keeps a colour that reads on the pages and darkens one that does not, to the lightest shade that does, hue kept', () => {
    assert.deepEqual(accentFor(parseHexColour('#1d4ed8')!), { color: '#1d4ed8', requested: '#1d4ed8', adjusted: false, contrast: 6.7, requestedContrast: 6.7 });
    const yellow = accentFor(parseHexColour('#fc0')!);
    assert.equal(yellow.requested, '#ffcc00');
    assert.equal(yellow.adjusted, true);
    assert.ok(yellow.requestedContrast < 2);
    const used = parseHexColour(yellow.color)!;
    assert.ok(readsOnPages(used), `${yellow.color} reads on white, the light grey and its wash`);
    assert.ok(contrastOnWhite(used) >= MIN_CONTRAST && contrastOnWhite(used) < 5.2, `${yellow.color} is about the lightest that does (${contrastOnWhite(used)} on white)`);
    const lighter = { r: Math.min(255, used.r + 3), g: Math.min(255, used.g + 3), b: used.b };
    assert.equal(readsOnPages(lighter), false, 'a shade lighter would not read');
    assert.ok(used.r > used.g && used.g > used.b, `${yellow.color} is still a yellow-orange hue`);
    const grey = parseHexColour(accentFor(parseHexColour('#ffffff')!).color)!;
    assert.ok(grey.r === grey.g && grey.g === grey.b && readsOnPages(grey), 'white becomes a grey that reads');
  });
});
