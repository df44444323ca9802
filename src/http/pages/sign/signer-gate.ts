import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { DomainDeps } from '../../../domain/context.js';
import { GATE_PURPOSES, openGate, requirePass, retiredLinkOf, type GatePass, type GatePurpose } from '../../../domain/signing/gate/signer-gate.js';
import { readCookie } from '../../cookies.js';
import { sendPage } from '../send-page.js';
import { replacedLinkPage } from './reassign-html.js';
import { SIGN_CSP } from './sign-policy.js';
import { signerLocale, wordsFor } from './sign-words.js';

// Every route of a signing link (`/sign/:token…`) is registered here and passes the signer gate
// (domain/signing/gate/signer-gate.ts) before its handler runs: the link resolved, this browser's
// signer session found, the recipient's checks run. `guardSigningRoutes` refuses, at start-up, a
// signing route registered any other way, so no new route can bypass the checks.

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The signer-gate purpose of a signing-link route (set by gatedRoute / gatedPage only). */
    signerGate?: GatePurpose;
  }
}

export const SIGNER_COOKIE = 'formsign_signer';
const SIGNING_ROUTE = /^\/sign\/:token(\/|$)/;

type Params = { token: string };
type Req = FastifyRequest<{ Params: Params; Body: unknown }>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface SigningRouteInfo {
  readonly method: string;
  readonly url: string;
  /** The gate purpose the route was registered with; undefined for a route that bypasses the gate. */
  readonly purpose: GatePurpose | undefined;
}

const registered = new WeakMap<FastifyInstance, SigningRouteInfo[]>();

function purposeOf(route: RouteOptions): GatePurpose | undefined {
  const p = (route.config as { signerGate?: unknown } | undefined)?.signerGate;
  return typeof p === 'string' && (GATE_PURPOSES as readonly string[]).includes(p) ? (p as GatePurpose) : undefined;
}

/**
 * Installed first in buildApp: every route whose path is a signing link's is recorded, and one that
 * was not registered through `gatedRoute`/`gatedPage` stops the start.
 */
export function guardSigningRoutes(app: FastifyInstance): void {
  const list: SigningRouteInfo[] = [];
  registered.set(app, list);
  app.addHook('onRoute', (route) => {
    if (!SIGNING_ROUTE.test(route.url)) return;
    const purpose = purposeOf(route);
    for (const method of [route.method].flat()) list.push({ method, url: route.url, purpose });
    if (purpose === undefined) throw new Error(`${[route.method].flat().join(',')} ${route.url} is a signing-link route registered without the signer gate (use gatedRoute or gatedPage)`);
  });
}

/** The signing-link routes registered on `app` (for the test that none bypasses the gate). */
export function signingRoutesOf(app: FastifyInstance): readonly SigningRouteInfo[] {
  return registered.get(app) ?? [];
}

function gateInput(req: Req, purpose: GatePurpose) {
  return { token: req.params.token, cookie: readCookie(req, SIGNER_COOKIE), purpose };
}

/**
 * A route whose request must pass the gate: a missing link is 404 and a stop is its error
 * (`401 auth_required`), answered by the route's error handler (JSON for the page's script).
 */
export function gatedRoute(
  app: FastifyInstance,
  deps: DomainDeps,
  o: { method: Method; url: string; purpose: GatePurpose; errorHandler?: (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => unknown; bodyLimit?: number },
  handler: (req: Req, reply: FastifyReply, pass: GatePass) => Promise<unknown>,
): void {
  app.route<{ Params: Params; Body: unknown }>({
    method: o.method,
    url: o.url,
    config: { signerGate: o.purpose },
    ...(o.errorHandler ? { errorHandler: o.errorHandler } : {}),
    ...(o.bodyLimit ? { bodyLimit: o.bodyLimit } : {}),
    handler: async (req, reply) => handler(req, reply, await requirePass(deps, gateInput(req, o.purpose))),
  });
}

/**
 * A page: the handler gets the gate's answer even when stopped (it shows the check's screen) or when
 * the token is no link (undefined: the invalid-link page). A replaced link's page is answered here,
 * 410 in the language of the person it was sent to (issue 38 item 5), before any handler runs.
 */
export function gatedPage(app: FastifyInstance, deps: DomainDeps, o: { url: string; purpose: GatePurpose }, handler: (req: Req, reply: FastifyReply, pass: GatePass | undefined) => Promise<unknown>): void {
  app.route<{ Params: Params; Body: unknown }>({
    method: 'GET',
    url: o.url,
    config: { signerGate: o.purpose },
    handler: async (req, reply) => {
      const pass = await openGate(deps, gateInput(req, o.purpose));
      if (!pass) {
        const retired = await retiredLinkOf(deps, req.params.token);
        if (retired) {
          reply.header('Vary', 'Accept-Language');
          return sendPage(reply, replacedLinkPage(wordsFor(signerLocale(req, { recipient: retired.locale })), req.id), { status: 410, csp: SIGN_CSP });
        }
      }
      return handler(req, reply, pass);
    },
  });
}

/**
 * Binds the link to this browser: the session's cookie, HttpOnly (no script reads it), SameSite=Strict
 * (never sent by another site's request), scoped to this link's path, Secure on https. No Max-Age: the
 * server ends the session after an hour idle.
 */
export function setSignerCookie(reply: FastifyReply, token: string, value: string, secure: boolean): void {
  reply.header('Set-Cookie', `${SIGNER_COOKIE}=${value}; Path=/sign/${token}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`);
}
