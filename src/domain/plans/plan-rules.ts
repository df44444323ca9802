import type { Plan } from '../../db/tables.js';
import type { Mode } from '../../lib/partition.js';
import { AppError } from '../errors.js';

// What a plan allows. Live data needs a paid plan: this one function is the rule for API keys (a live
// key authenticating, a live key being made) and for the dashboard's live pages (the mode in the
// address). It lives in an area of its own that imports no other, so that keys/ and users/ can both use
// it without importing each other.

const LIVE_NEEDS_PAID = 'Live mode needs a paid plan. Use test mode (and test keys) on the trial plan, or ask your operator to upgrade this account.';

/** Throws 402 plan_required for live on a plan other than paid (or on an account that is not found). */
export function assertModeAllowed(plan: Plan | undefined, mode: Mode, param?: string): void {
  if (mode === 'live' && plan !== 'paid') throw new AppError('plan_required', LIVE_NEEDS_PAID, param);
}

/**
 * The plans' terms as the operator configured them (config: DEFAULT_PLAN, PLAN_TRIAL_MONTHLY_CALLS,
 * PLAN_PAID_MONTHLY_CALLS): what a dashboard sign-up gets, and each plan's monthly quota of API calls.
 * An account the operator makes (and the first-start one) has no monthly quota unless told otherwise.
 */
export interface PlanSettings {
  readonly signUpPlan: Plan;
  readonly monthlyCalls: Readonly<Record<Plan, number>>;
}
