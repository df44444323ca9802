import type { components } from '../../generated/api.js';
import { AppError } from '../errors.js';
import { MAX_RECIPIENTS_PER_FORM } from '../sending/recipient-rules.js';

/** A named signer slot: the one shape for a template's roles and a generated form's (`SignerRole`). */
export type SignerRole = components['schemas']['SignerRole'];

export const MAX_ROLE_LENGTH = 120;

/**
 * Checks the roles a template's signer slots are given (`signers` of updateTemplate, the builder's save)
 * and returns them ordered by slot. A slot may be named before any field uses it (the builder names
 * slots as the sender adds them); a slot past the most recipients a form can have could never sign.
 * Callers that skip the HTTP schema (the dashboard) get the same answers from here.
 */
export function parseSignerRoles(input: unknown, prefix = 'signers'): SignerRole[] {
  if (!Array.isArray(input)) throw new AppError('parameter_invalid', `${prefix} must be an array of {slot, role} objects.`, prefix);
  if (input.length > MAX_RECIPIENTS_PER_FORM) throw new AppError('parameter_invalid', `${prefix} may name at most ${MAX_RECIPIENTS_PER_FORM} slots.`, prefix);
  const seen = new Set<number>();
  const roles = input.map((raw: unknown, i): SignerRole => {
    const at = `${prefix}[${i}]`;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new AppError('parameter_invalid', `${at} must be an object {slot, role}.`, at);
    const r = raw as Record<string, unknown>;
    const extra = Object.keys(r).find((k) => k !== 'slot' && k !== 'role');
    if (extra !== undefined) throw new AppError('parameter_unknown', `Received unknown parameter '${at}.${extra}'.`, `${at}.${extra}`);
    const slot = r['slot'];
    if (typeof slot !== 'number' || !Number.isInteger(slot) || slot < 1 || slot > MAX_RECIPIENTS_PER_FORM) {
      throw new AppError('parameter_invalid', `slot must be a whole number from 1 to ${MAX_RECIPIENTS_PER_FORM}.`, `${at}.slot`);
    }
    if (seen.has(slot)) throw new AppError('parameter_invalid', `Signer slot ${slot} is named twice.`, `${at}.slot`);
    seen.add(slot);
    // Surrounding spaces are not part of a name; a role that is only spaces names nothing.
    const role = typeof r['role'] === 'string' ? r['role'].trim() : undefined;
    if (role === undefined || role.length === 0 || [...role].length > MAX_ROLE_LENGTH) {
      throw new AppError('parameter_invalid', `role must be a name of 1 to ${MAX_ROLE_LENGTH} characters (not only spaces), such as "Tenant".`, `${at}.role`);
    }
    return { slot, role };
  });
  return roles.sort((a, b) => a.slot - b.slot);
}

/**
 * Roles that did not come from a person (a generator's or a model's): made to fit the rules
 * `parseSignerRoles` enforces, never refused — the caller did not write them, so a 400 naming
 * `signers[i]` would point at nothing it sent. One role per slot (the first), slots a form can have,
 * names trimmed and cut to the limit.
 */
export function fitSignerRoles(roles: readonly { slot: number; role: string }[]): SignerRole[] {
  const bySlot = new Map<number, string>();
  for (const { slot, role } of roles) {
    const name = [...role.trim()].slice(0, MAX_ROLE_LENGTH).join('').trim();
    if (!Number.isInteger(slot) || slot < 1 || slot > MAX_RECIPIENTS_PER_FORM || name.length === 0 || bySlot.has(slot)) continue;
    bySlot.set(slot, name);
  }
  return [...bySlot].map(([slot, role]) => ({ slot, role })).sort((a, b) => a.slot - b.slot);
}
