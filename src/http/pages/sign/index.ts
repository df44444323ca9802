import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DomainDeps } from '../../../domain/context.js';
import { allowedFrameOrigins } from '../../../domain/embed/embed-origins.js';
import { AppError } from '../../../domain/errors.js';
import { getFormPdf } from '../../../domain/forms/render-form-pdf.js';
import { firstPageImage } from '../../../domain/forms/first-page-image.js';
import { documentPageSizes } from '../../../domain/forms/document-pages.js';
import { readSignedPdf } from '../../../domain/forms/signed-pdf.js';
import { startCheck, verifyCheck } from '../../../domain/signing/gate/check-codes.js';
import type { GatePass } from '../../../domain/signing/gate/signer-gate.js';
import { readCookie } from '../../cookies.js';
import { checkPage, finishCheckDialog, reloadPage } from './check-html.js';
import { gatedPage, gatedRoute, setSignerCookie, SIGNER_COOKIE } from './signer-gate.js';
import { signForm } from '../../../domain/signing/sign-form.js';
import { openSigningPage } from '../../../domain/signing/signing-page.js';
import type { Client } from '../../../domain/signing/view-form.js';
import { sendJsonError } from '../../error-body.js';
import { html } from '../html.js';
import { sendPage } from '../send-page.js';
import { registerAssets } from '../static-asset.js';
import { expiredPage, invalidLinkPage, openPage, signedPage } from './sign-html.js';
import { registerSignatureFonts, registerStandardFonts, SIGN_ASSETS } from './sign-assets.js';
import { SIGN_CSP, SIGN_SUBMIT_HEADER, signCsp } from './sign-policy.js';
import { LANG_PARAM, pickedLocale, signerLocale, wordsFor } from './sign-words.js';
import { acceptedTags } from '../../../lib/i18n/index.js';
import { declinedPage, voidedPage, waitingPage } from './lifecycle-html.js';
import { declineForm } from '../../../domain/lifecycle/decline-form.js';
import { approveForm } from '../../../domain/lifecycle/approve-form.js';
import { rolePage } from './role-html.js';
import { refuseClosedLink } from '../../../domain/lifecycle/closed-links.js';
import { embedHead } from './embed-head.js';
import { reassignFromSigningPage } from '../../../domain/lifecycle/reassign-recipient.js';
import { reassignPage, reassignRefusedPage } from './reassign-html.js';
import { endPageFacts } from '../../../domain/signing/end-page-facts.js';
import { DRAFT_BODY_LIMIT, draftValuesOf, saveDraft, withDraft } from '../../../domain/signing/drafts/signing-draft.js';
import { removeAttachment, uploadAttachment } from '../../../domain/signing/attachments/signer-attachments.js';
import { MAX_ATTACHMENT_BYTES } from '../../../domain/signing/attachments/attachment-file.js';
import { clientGoneSignal } from '../../routes/client-gone.js';
import { signatureStylesFor, STYLE_REQUESTS_PER_MINUTE } from '../../../domain/signing/signature-styles.js';
import { AddressWindow } from '../verify/address-window.js';

// The signing page (no account, no key: the link's token is the credential, and the recipient's check,
// when the sender asked for one, binds it to a browser). GET shows the document and this recipient's
// fields (and records the first view), GET …/document.pdf is the filled document the page renders,
// POST takes the signature as JSON; …/auth/start and …/auth/verify pass the check.

const MAX_USER_AGENT = 512;

function clientOf(req: FastifyRequest): Client {
  const ua = req.headers['user-agent'];
  return { ip: req.ip || null, userAgent: typeof ua === 'string' ? ua.slice(0, MAX_USER_AGENT) : null };
}

/**
 * A submission must come from the page itself: a JSON body (a cross-site form cannot send one), a
 * header no cross-site request can carry without a CORS preflight (never granted here), and, where
 * the browser names the origin, this server's own.
 */
function assertSameSite(req: FastifyRequest): void {
  if (req.headers[SIGN_SUBMIT_HEADER] !== '1') throw new AppError('parameter_invalid', 'Sign from the signing page: this request is missing its page header.');
  const origin = req.headers.origin;
  if (origin === undefined) return;
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined;
  }
  if (host === undefined || host !== req.headers.host) throw new AppError('parameter_invalid', 'Sign from the signing page: this request comes from another site.');
}

/** Errors of the JSON submission are JSON (the page shows their message), not HTML pages. */
function jsonError(err: Error, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendJsonError(err, req, reply, 'signing failed');
}

/** The draft's errors as the page's; its body bound is its own (not the API's 1 MiB), so its 413 says so. */
function draftError(err: Error & { code?: string }, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (err.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') return jsonError(err, req, reply);
  return jsonError(new AppError('payload_too_large', `A draft is at most ${DRAFT_BODY_LIMIT / 1024} KiB of JSON.`), req, reply);
}

/** The attachment route's errors as the page's; its 413 names the files' own bound (10 MiB). */
function attachmentError(err: Error & { code?: string }, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (err.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') return jsonError(err, req, reply);
  return jsonError(new AppError('payload_too_large', `A file you attach is at most ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MiB.`, 'file'), req, reply);
}

/**
 * No link by this address: a page for a signer, in their browser's language (a developer's HTML 404
 * with its API links would only confuse them). Same status and request id as the contract's 404.
 */
function sendInvalidLink(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header('Vary', 'Accept-Language');
  return sendPage(reply, invalidLinkPage(wordsFor(signerLocale(req)), req.id), { status: 404, csp: SIGN_CSP });
}

export function registerSign(app: FastifyInstance, deps: DomainDeps): void {
  registerAssets(app, Object.values(SIGN_ASSETS));
  registerStandardFonts(app);
  registerSignatureFonts(app);
  const secure = deps.baseUrl.startsWith('https:');

  // Every route below is a signing link's and passes the signer gate (signer-gate.ts) first.
  gatedPage(app, deps, { url: '/sign/:token', purpose: 'view' }, async (req, reply, pass) => {
    const { token } = req.params;
    if (!pass) return sendInvalidLink(req, reply);
    const link = pass.link;
    // HEAD (a link checker, a mail scanner's probe) shows nothing, so it records no view either.
    if (req.method === 'HEAD') return sendPage(reply, html``, { csp: SIGN_CSP, ...(pass.stop ? { status: 401 } : {}) });
    const origins = await allowedFrameOrigins(deps, link.partition);
    const policy = { csp: signCsp(origins), framable: origins.length > 0 };
    reply.header('Vary', 'Accept-Language');
    if (pass.stop) {
      // SameSite=Strict: a click from a mail (another site) arrives without the session's cookie. The
      // page reloads itself once, a same-site navigation that carries it; a browser without one then
      // gets the code screen.
      if (req.headers['sec-fetch-site'] === 'cross-site' && readCookie(req, SIGNER_COOKIE) === undefined) return sendPage(reply, reloadPage(), { status: 401, csp: SIGN_CSP });
      const w = wordsFor(signerLocale(req, { recipient: link.recipient.locale }));
      return sendPage(reply, checkPage(w, pass, { start: `/sign/${token}/auth/start`, verify: `/sign/${token}/auth/verify` }, deps.clock.now().getTime()), { status: 401, ...policy });
    }
    // The recipient's draft (issue 43), typed on any device, fills their fields again.
    const page = withDraft(await openSigningPage(deps, link, clientOf(req)), await draftValuesOf(deps, link));
    const w = wordsFor(signerLocale(req, { recipient: page.recipientLocale, account: page.accountLocale }));
    // The language picked in the menu stays with the pages the signer goes on to (after signing).
    const picked = pickedLocale(req);
    const base = `/sign/${token}`;
    const stay = picked ? `?${LANG_PARAM}=${picked}` : '';
    // Embedded signing: the account's allowed origins may frame the page and hear its messages.
    // Every state's page carries it, so a framing host hears what the recipient sees (embed-bridge.js).
    const embed = embedHead(link, origins, page.state);
    // Issue 42: an approver, cc or viewer gets a page without fields (role-html.ts).
    if (page.role !== 'signer' && (page.state === 'open' || page.state === 'signed')) {
      return sendPage(reply, rolePage(w, page, { document: `${base}/document.pdf`, signedPdf: `${base}/signed.pdf`, approve: `${base}/approve${stay}`, decline: `${base}/decline${stay}` }, embed), policy);
    }
    if (page.state === 'expired') return sendPage(reply, expiredPage(w, page, embed), { status: 410, ...policy });
    if (page.state === 'waiting') return sendPage(reply, waitingPage(w, page, embed, await endPageFacts(deps, link)), { status: 409, ...policy });
    if (page.state === 'declined') return sendPage(reply, declinedPage(w, page, embed, await endPageFacts(deps, link)), { status: 410, ...policy });
    if (page.state === 'voided') return sendPage(reply, voidedPage(w, page, embed, await endPageFacts(deps, link)), { status: 410, ...policy });
    if (page.state === 'signed') return sendPage(reply, signedPage(w, page, { signedPdf: `${base}/signed.pdf` }, embed), policy);
    const finish = pass.check?.check_when === 'sign' ? finishCheckDialog(w, pass, { start: `${base}/auth/start`, verify: `${base}/auth/verify` }) : undefined;
    // Each page's size from the server (issue 43 item 4): the page reserves the boxes before any PDF byte.
    const pageSizes = await documentPageSizes(deps, link.partition, link.form.pdf_key, clientGoneSignal(reply));
    return sendPage(reply, openPage(w, { ...page, pageSizes }, { document: `${base}/document.pdf`, firstPage: `${base}/first-page.webp`, submit: `${base}${stay}`, decline: `${base}/decline${stay}`, draft: `${base}/draft`, signatureStyles: `${base}/signature-styles`, reassign: link.form.allow_reassign === 1 ? `${base}/reassign${stay}` : undefined }, deps.clock.now().toISOString().slice(0, 10), embed, finish), policy);
  });

  gatedRoute(app, deps, { method: 'GET', url: '/sign/:token/document.pdf', purpose: 'document' }, async (req, reply, { link }) => {
    if (link.state === 'expired') throw new AppError('form_expired', 'This signing link has expired.');
    if (link.state !== 'signed') refuseClosedLink(link);
    const controller = new AbortController();
    req.raw.once('close', () => controller.abort());
    const result = await getFormPdf(deps, link.partition, link.form.id, undefined, controller.signal);
    if (result.notModified) throw new Error('unreachable: no If-None-Match was given');
    return reply
      .header('Cache-Control', 'private, no-store')
      .header('Content-Disposition', `inline; filename="${result.filename}"`)
      .header('Referrer-Policy', 'no-referrer')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cross-Origin-Resource-Policy', 'same-origin')
      .type('application/pdf')
      .send(Buffer.from(result.pdf));
  });

  // The first page as a picture (issue 43 item 4): shown until pdf.js has drawn it. Its entity tag is
  // the rendering's version. no-store, as document.pdf: it shows filled values, which must not stay in a
  // shared device's disk cache.
  gatedRoute(app, deps, { method: 'GET', url: '/sign/:token/first-page.webp', purpose: 'document' }, async (req, reply, { link }) => {
    if (link.state === 'expired') throw new AppError('form_expired', 'This signing link has expired.');
    if (link.state !== 'signed') refuseClosedLink(link);
    const { image, etag } = await firstPageImage(deps, link.partition, link.form.id, req.headers['if-none-match'], clientGoneSignal(reply));
    reply.header('ETag', etag).header('Cache-Control', 'no-store').header('Cross-Origin-Resource-Policy', 'same-origin').header('X-Content-Type-Options', 'nosniff').header('Referrer-Policy', 'no-referrer');
    if (!image) return reply.code(304).send();
    return reply.type('image/webp').send(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
  });

  // The signer's copy, once sealed; before that the confirmation page says it is being sealed.
  gatedRoute(app, deps, { method: 'GET', url: '/sign/:token/signed.pdf', purpose: 'signed_pdf' }, async (_req, reply, { link }) => {
    const { pdf, filename } = await readSignedPdf(deps, link.partition, link.form.id);
    return reply
      .header('Cache-Control', 'private, no-store')
      .header('Content-Disposition', `attachment; filename="${filename}"`)
      .header('Referrer-Policy', 'no-referrer')
      .header('X-Content-Type-Options', 'nosniff')
      .type('application/pdf')
      .send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  });

  gatedRoute(app, deps, { method: 'POST', url: '/sign/:token', purpose: 'sign', errorHandler: jsonError }, async (req, reply, { link }) => {
    assertSameSite(req);
    const body = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AppError('parameter_invalid', 'The request body must be a JSON object {values, consent}.');
    const { values, consent, utc_offset_minutes: utcOffsetMinutes, locale, ...rest } = body as Record<string, unknown>;
    const extra = Object.keys(rest)[0];
    if (extra !== undefined) throw new AppError('parameter_unknown', `Received unknown parameter '${extra}'.`, extra);
    if (typeof values !== 'object' || values === null || Array.isArray(values)) throw new AppError('parameter_invalid', 'values must be an object of field names to values.', 'values');
    const languageChoices = { picked: pickedLocale(req), accepted: acceptedTags(req.headers['accept-language']) };
    const result = await signForm(deps, link, { values: values as Record<string, unknown>, consent, utcOffsetMinutes, locale, languageChoices }, clientOf(req));
    const picked = pickedLocale(req);
    return reply.header('Cache-Control', 'no-store').send({ status: 'signed', complete: result.complete, next: `/sign/${req.params.token}${picked ? `?${LANG_PARAM}=${picked}` : ''}` });
  });

  // Decline to sign (issue #23): posted by the page's dialog (assets/decline.js) as a signature is.
  gatedRoute(app, deps, { method: 'POST', url: '/sign/:token/decline', purpose: 'decline', errorHandler: jsonError }, async (req, reply, { link }) => {
    assertSameSite(req);
    const body = req.body ?? {};
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AppError('parameter_invalid', 'The request body must be a JSON object {reason?}.');
    const { reason, ...rest } = body as Record<string, unknown>;
    const extra = Object.keys(rest)[0];
    if (extra !== undefined) throw new AppError('parameter_unknown', `Received unknown parameter '${extra}'.`, extra);
    await declineForm(deps, link, { reason });
    const picked = pickedLocale(req);
    return reply.header('Cache-Control', 'no-store').send({ status: 'declined', next: `/sign/${req.params.token}${picked ? `?${LANG_PARAM}=${picked}` : ''}` });
  });

  // An approver approves (issue 42): posted by assets/approve.ts as a signature is. It is the approver's
  // act of signing, so it passes the gate as a signature does (a check asked again at signing included).
  gatedRoute(app, deps, { method: 'POST', url: '/sign/:token/approve', purpose: 'sign', errorHandler: jsonError }, async (req, reply, { link }) => {
    assertSameSite(req);
    noFields(req.body, []);
    const result = await approveForm(deps, link, clientOf(req));
    const picked = pickedLocale(req);
    return reply.header('Cache-Control', 'no-store').send({ status: 'approved', complete: result.complete, next: `/sign/${req.params.token}${picked ? `?${LANG_PARAM}=${picked}` : ''}` });
  });

  // Progress on the server (issue 43): the values typed so far; `send_link` is "Finish later".
  gatedRoute(app, deps, { method: 'PUT', url: '/sign/:token/draft', purpose: 'draft', errorHandler: draftError, bodyLimit: DRAFT_BODY_LIMIT }, async (req, reply, { link }) => {
    assertSameSite(req);
    const { values, send_link: sendLink } = noFields(req.body, ['values', 'send_link']);
    const saved = await saveDraft(deps, link, { values, sendLink });
    return reply.header('Cache-Control', 'no-store').send({ status: 'saved', ...saved });
  });

  // Adopt a signature (issue 43 item 7): the typed name in its script's three styles, as outlines. A
  // POST so that the name stays out of addresses and access logs; nothing is stored. Each costs the
  // event loop a layout (tens of ms for a long CJK name), so a signing link gets a bounded share: the
  // public verifier's fixed window, keyed by the link's recipient (the page asks once per name typed).
  const styleWindow = new AddressWindow(() => deps.clock.now().getTime(), STYLE_REQUESTS_PER_MINUTE, 60_000,
    (limit, _minutes, seconds) => `Signature styles are drawn at most ${limit} times a minute for a signing link; try again in ${seconds} seconds.`);
  gatedRoute(app, deps, { method: 'POST', url: '/sign/:token/signature-styles', purpose: 'sign', errorHandler: jsonError }, async (req, reply, { link }) => {
    assertSameSite(req);
    styleWindow.take(link.recipient.id);
    const styles = await signatureStylesFor(link, noFields(req.body, ['text']));
    return reply.header('Cache-Control', 'no-store').send(styles);
  });

  // Files the signer attaches (issue 41): the file is the body (any type: it is known by its content),
  // its name in a header, percent-encoded. In a scope of their own, whose parser takes any body.
  void app.register(async (scope) => {
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_ATTACHMENT_BYTES }, (_req, body, done) => done(null, body));
    gatedRoute(scope, deps, { method: 'POST', url: '/sign/:token/attachments', purpose: 'attachment', errorHandler: attachmentError, bodyLimit: MAX_ATTACHMENT_BYTES }, async (req, reply, { link }) => {
      assertSameSite(req);
      if (!Buffer.isBuffer(req.body)) throw new AppError('parameter_invalid', 'Send the file itself as the request body.', 'file');
      const name = req.headers['x-formsign-filename'];
      const field = (req.query as Record<string, unknown>)['field'];
      const view = await uploadAttachment(deps, link, { field, filename: typeof name === 'string' ? name : undefined, bytes: new Uint8Array(req.body), signal: clientGoneSignal(reply) });
      return reply.status(201).header('Cache-Control', 'no-store').send(view);
    });
    gatedRoute(scope, deps, { method: 'DELETE', url: '/sign/:token/attachments/:attachment_id', purpose: 'attachment', errorHandler: jsonError }, async (req, reply, { link }) => {
      assertSameSite(req);
      await removeAttachment(deps, link, (req.params as unknown as { attachment_id: string }).attachment_id);
      return reply.header('Cache-Control', 'no-store').send({ status: 'removed' });
    });
  });

  // Signer checks (issue 38): ask for a code, give it. The code travels in the JSON body only.
  gatedRoute(app, deps, { method: 'POST', url: '/sign/:token/auth/start', purpose: 'check', errorHandler: jsonError }, async (req, reply, pass) => {
    assertSameSite(req);
    noFields(req.body, []);
    const started = await startCheck(deps, openLinkOnly(pass), clientOf(req));
    return reply.header('Cache-Control', 'no-store').send({ status: 'started', ...started });
  });
  gatedRoute(app, deps, { method: 'POST', url: '/sign/:token/auth/verify', purpose: 'check', errorHandler: jsonError }, async (req, reply, pass) => {
    assertSameSite(req);
    const { code } = noFields(req.body, ['code']);
    const passed = await verifyCheck(deps, openLinkOnly(pass), code, clientOf(req));
    if (passed.cookie) setSignerCookie(reply, req.params.token, passed.cookie, secure);
    return reply.header('Cache-Control', 'no-store').send({ status: 'verified', purpose: passed.purpose, next: `/sign/${req.params.token}` });
  });

  // "Not me? Assign to someone else" (issue 38 item 5), for a form sent with `allow_reassign`: the page
  // (behind the gate like the document: a stopped browser is sent to the link's check screen) and its post.
  gatedPage(app, deps, { url: '/sign/:token/reassign', purpose: 'reassign' }, async (req, reply, pass) => {
    const { token } = req.params;
    if (!pass) return sendInvalidLink(req, reply);
    const base = `/sign/${token}`;
    const picked = pickedLocale(req);
    const stay = picked ? `?${LANG_PARAM}=${picked}` : '';
    // A stopped browser, or a link that cannot be passed on now (signed, waiting, over): the link's own page says why.
    if (pass.stop || pass.link.state !== 'open') return reply.header('Cache-Control', 'no-store').redirect(`${base}${stay}`, 303);
    reply.header('Vary', 'Accept-Language');
    const w = wordsFor(signerLocale(req, { recipient: pass.link.recipient.locale }));
    const o = { formName: pass.link.form.name, back: `${base}${stay}` };
    if (pass.link.form.allow_reassign !== 1) return sendPage(reply, reassignRefusedPage(w, o), { status: 409, csp: SIGN_CSP });
    return sendPage(reply, reassignPage(w, { ...o, post: `${base}/reassign` }), { csp: SIGN_CSP });
  });
  gatedRoute(app, deps, { method: 'POST', url: '/sign/:token/reassign', purpose: 'reassign', errorHandler: jsonError }, async (req, reply, { link }) => {
    assertSameSite(req);
    const { email, phone, name, reason } = noFields(req.body, ['email', 'phone', 'name', 'reason']);
    const done = await reassignFromSigningPage(deps, link, { email, phone, name, reason });
    return reply.header('Cache-Control', 'no-store').send({ status: 'reassigned', reassigned_at: done.reassignedAt });
  });

  app.get('/sign', async (req, reply) => sendInvalidLink(req, reply));
  app.get('/sign/*', async (req, reply) => sendInvalidLink(req, reply));
}

/** The body's named fields, refusing any other (a missing body is an empty one). */
function noFields(body: unknown, allowed: readonly string[]): Record<string, unknown> {
  const b = body ?? {};
  if (typeof b !== 'object' || b === null || Array.isArray(b)) throw new AppError('parameter_invalid', 'The request body must be a JSON object.');
  const extra = Object.keys(b).find((k) => !allowed.includes(k));
  if (extra !== undefined) throw new AppError('parameter_unknown', `Received unknown parameter '${extra}'.`, extra);
  return b as Record<string, unknown>;
}

/** A check is passed only on a link that can still be signed (a closed link has nothing to open). */
function openLinkOnly(pass: GatePass): GatePass {
  if (pass.link.state === 'expired') throw new AppError('form_expired', 'This signing link has expired.');
  if (pass.link.state !== 'open' && pass.link.state !== 'signed') refuseClosedLink(pass.link);
  return pass;
}
