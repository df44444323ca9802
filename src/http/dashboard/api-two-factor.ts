import type { FastifyInstance } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import { beginEnrolment, confirmEnrolment, disableTwoFactor, twoFactorStatus, verifySecondFactor, type EnrolledView } from '../../domain/users/two-factor.js';
import { sessionGuardAt, sessionOf } from './guard.js';
import { jsonObject } from './json-input.js';
import { clientIp } from './actor.js';
import { replaceSession, sendStarted } from './start-session.js';

// Two-factor sign-in (issue 39 item 4): the signed-in user's status, enrolment (also for a
// half-signed-in session of an account that requires it), the code step of sign-in, and turning it
// off. Finishing a step replaces the session (a new id) and sets its cookie.

export function registerTwoFactorApi(api: FastifyInstance, deps: DomainDeps): void {
  const full = sessionGuardAt(deps, [null]);
  const enrolling = sessionGuardAt(deps, [null, 'enrol']);
  const codeStep = sessionGuardAt(deps, ['code']);

  api.get('/two-factor', { onRequest: full }, async (req) => twoFactorStatus(deps, sessionOf(req)));

  api.post('/two-factor/enrolment', { onRequest: enrolling }, async (req) => {
    const body = jsonObject(req, ['password']);
    return beginEnrolment(deps, sessionOf(req), { password: body['password'], ip: clientIp(req) });
  });

  api.post('/two-factor/enrolment/confirm', { onRequest: enrolling }, async (req, reply) => {
    const body = jsonObject(req, ['code']);
    const { started, recoveryCodes } = await confirmEnrolment(deps, sessionOf(req), { code: body['code'], ip: clientIp(req) });
    await replaceSession(deps, req, reply, started);
    const view: EnrolledView = { object: 'two_factor_enrolled', recovery_codes: recoveryCodes, session: started.view };
    return view;
  });

  api.post('/two-factor/verify', { onRequest: codeStep }, async (req, reply) => {
    const body = jsonObject(req, ['code', 'recovery_code']);
    return sendStarted(deps, req, reply, await verifySecondFactor(deps, sessionOf(req), { code: body['code'], recovery_code: body['recovery_code'], ip: clientIp(req) }));
  });

  api.post('/two-factor/disable', { onRequest: full }, async (req) => {
    const body = jsonObject(req, ['code']);
    return disableTwoFactor(deps, sessionOf(req), { code: body['code'], ip: clientIp(req) });
  });
}
