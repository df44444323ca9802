import { findRetiredLink } from '../../../db/repositories/link-replacement.js';
import { findRecipientCheck } from '../../../db/repositories/signer-checks.js';
import type { RecipientCheckRow, RetiredLinkRow, SignerSessionRow } from '../../../db/tables.js';
import type { DomainDeps } from '../../context.js';
import { AppError } from '../../errors.js';
import { isLinkToken, resolveSigningLink, type SigningLink } from '../resolve-link.js';
import { LINK_REPLACED } from '../lock-link-form.js';
import { SIGN_CHECK_FRESH_MS } from './check-rules.js';
import { findLiveSession } from './signer-session.js';

// The one gate every signing-page request passes through (issue 38). It resolves the link to its
// recipient and this browser's signer session, then runs the steps a recipient needs, in order; the
// first step that is not satisfied stops the request with the error that says what is missing. A
// future check (ID verification, a knowledge question) is one more GateStep in GATE_STEPS.
// The HTTP layer (http/pages/sign/signer-gate.ts) registers every /sign/<token> route through it and
// refuses at start-up a route that does not.

/** What a request on a signing link is for: each route names one. */
export type GatePurpose =
  /** The page itself (a closed link's page shows no document and needs no check). */
  | 'view'
  /** The filled document the page renders. */
  | 'document'
  /** The sealed copy after signing. */
  | 'signed_pdf'
  | 'sign'
  | 'decline'
  /** The check's own routes (asking for a code, giving it): the means of passing, so never stopped by it. */
  | 'check'
  | 'reassign'
  | 'draft'
  /** A file the signer attaches to an attachment field, or removes before signing (issue 41). */
  | 'attachment';

export const GATE_PURPOSES: readonly GatePurpose[] = ['view', 'document', 'signed_pdf', 'sign', 'decline', 'check', 'reassign', 'draft', 'attachment'];

/** What the gate knows of a request once the link is resolved. */
export interface GateContext {
  readonly purpose: GatePurpose;
  readonly link: SigningLink;
  /** The check the sender asked of this recipient; undefined when none. */
  readonly check: RecipientCheckRow | undefined;
  /** This browser's live session on this link; undefined when it has none. */
  readonly session: SignerSessionRow | undefined;
  /** The clock's now, in ms. */
  readonly now: number;
}

export interface GateStep {
  readonly name: string;
  /** Whether this step concerns the request; a step that does not is skipped. */
  applies(c: GateContext): boolean;
  /** Whether the request satisfies it. */
  passes(c: GateContext): boolean;
  /** The error that stops a request that does not. */
  refusal(c: GateContext): AppError;
}

/** Where a document can be read or acted on: the states whose pages show it. */
const DOCUMENT_STATES: ReadonlySet<SigningLink['state']> = new Set(['open', 'signed']);

/** The recipient's check, before anything of the document is shown or done. */
export const identityStep: GateStep = {
  name: 'identity',
  applies: (c) => c.check !== undefined && c.purpose !== 'check' && (c.purpose !== 'view' || DOCUMENT_STATES.has(c.link.state)),
  passes: (c) => c.session?.verified_at != null,
  refusal: () => new AppError('auth_required', 'Confirm who you are first: enter the code this link asks for.'),
};

/** `when: sign`: the check again when the signer presses Finish, passed in the last minutes. */
export const finishStep: GateStep = {
  name: 'finish',
  applies: (c) => c.check?.check_when === 'sign' && c.purpose === 'sign',
  passes: (c) => c.session?.sign_verified_at != null && Date.parse(c.session.sign_verified_at) + SIGN_CHECK_FRESH_MS > c.now,
  refusal: () => new AppError('auth_required', 'Confirm who you are again to finish: enter a new code.', 'finish'),
};

/** The steps, in order. */
export const GATE_STEPS: readonly GateStep[] = [identityStep, finishStep];

/** A request that got through the gate, or was stopped at a step (`stop`); the page may show a stopped view. */
export interface GatePass extends GateContext {
  readonly stop: { readonly step: string; readonly error: AppError } | undefined;
}

const INVALID = 'This signing link is not valid. Ask the sender for a new one.';

/**
 * Resolves `token` and runs the steps. Undefined when the token is no link. A stopped request comes
 * back with `stop` set: the caller throws its error (`requirePass`) or shows the check's screen.
 */
export async function openGate(
  deps: Pick<DomainDeps, 'db' | 'links' | 'clock' | 'transact'>,
  input: { token: string; cookie: string | undefined; purpose: GatePurpose },
  steps: readonly GateStep[] = GATE_STEPS,
): Promise<GatePass | undefined> {
  const link = await resolveSigningLink(deps, input.token);
  if (!link) return undefined;
  const check = await findRecipientCheck(deps.db, link.partition, link.recipient.id);
  const session = check ? await findLiveSession(deps, link, input.cookie) : undefined;
  const context: GateContext = { purpose: input.purpose, link, check, session, now: deps.clock.now().getTime() };
  for (const step of steps) {
    if (step.applies(context) && !step.passes(context)) return { ...context, stop: { step: step.name, error: step.refusal(context) } };
  }
  return { ...context, stop: undefined };
}


/**
 * A token that is no live link but was one (issue 38 item 5): the recipient was changed and has a new
 * link. Every route of such a link answers 410 `link_replaced` (its page in the signer's language).
 */
export async function retiredLinkOf(deps: Pick<DomainDeps, 'db' | 'links'>, token: string): Promise<RetiredLinkRow | undefined> {
  if (!isLinkToken(token)) return undefined;
  return findRetiredLink(deps.db, deps.links.tokenHash(token));
}

/**
 * The gate for a request that has no page to show when stopped: a replaced link is 410, a missing
 * one 404, a stop its error.
 */
export async function requirePass(deps: Pick<DomainDeps, 'db' | 'links' | 'clock' | 'transact'>, input: { token: string; cookie: string | undefined; purpose: GatePurpose }): Promise<GatePass> {
  const pass = await openGate(deps, input);
  if (!pass && (await retiredLinkOf(deps, input.token))) throw new AppError('link_replaced', LINK_REPLACED);
  if (!pass) throw new AppError('resource_not_found', INVALID);
  if (pass.stop) throw pass.stop.error;
  return pass;
}
