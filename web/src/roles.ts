import type { components } from '../../src/generated/api';

// Named signer slots ("Tenant", "Landlord"): a template's `signers`, named in the builder and shown to
// the sender when sending. A slot without a name is "Signer N".

export type SignerRole = components['schemas']['SignerRole'];

export function roleName(roles: readonly SignerRole[] | undefined, slot: number): string {
  return roles?.find((r) => r.slot === slot)?.role ?? `Signer ${slot}`;
}

/** The builder's names by slot as the API takes them: blank names left out, ordered by slot. */
export function toSignerRoles(names: Readonly<Record<number, string>>): SignerRole[] {
  return Object.entries(names)
    .map(([slot, role]) => ({ slot: Number(slot), role: role.trim() }))
    .filter((r) => r.role !== '')
    .sort((a, b) => a.slot - b.slot);
}
