import type { RecipientRole, RecipientRow } from '../../db/tables.js';

// Recipient roles (issue 42, CONTRACT Part E): the one list, and the pure rules every part of a form's
// life asks of a role (who is messaged in turn, who must act before the form is complete, who signs).
// Unit-tested without a database.

/** The roles, in the order the contract names them; openapi.yaml's enum is checked against it. */
export const RECIPIENT_ROLES = ['signer', 'approver', 'cc', 'viewer'] as const satisfies readonly RecipientRole[];

export const DEFAULT_ROLE: RecipientRole = 'signer';

export function isRecipientRole(value: unknown): value is RecipientRole {
  return typeof value === 'string' && (RECIPIENT_ROLES as readonly string[]).includes(value);
}

/**
 * Roles that must do something, and so wait for their turn in a sequential form: a signer signs, an
 * approver approves, a viewer opens. A cc is told at once and never waits.
 */
export function actsInTurn(role: RecipientRole): boolean {
  return role !== 'cc';
}

/** Only signers and approvers hold the form open: it is complete when each of them is done. */
export function blocksCompletion(role: RecipientRole): boolean {
  return role === 'signer' || role === 'approver';
}

/** Only a signer fills fields and puts a signature on the document. */
export function signsDocument(role: RecipientRole): boolean {
  return role === 'signer';
}

type Progress = Pick<RecipientRow, 'role' | 'status'>;

/** Whether the recipient has done what their role asks (a cc has nothing to do). */
export function isDone(r: Progress): boolean {
  switch (r.role) {
    case 'signer':
      return r.status === 'signed';
    case 'approver':
      return r.status === 'approved';
    case 'viewer':
      return r.status === 'viewed';
    case 'cc':
      return true;
  }
}

/** The form is complete (ready to seal) when every signer and approver is done; cc and viewer never block. */
export function isComplete(recipients: readonly Progress[]): boolean {
  return recipients.some((r) => blocksCompletion(r.role)) && recipients.every((r) => !blocksCompletion(r.role) || isDone(r));
}

/** How many recipients the form still waits for, besides `except`. */
export function stillWaitingFor(recipients: ReadonlyArray<Progress & Pick<RecipientRow, 'id'>>, except: string): number {
  return recipients.filter((r) => r.id !== except && blocksCompletion(r.role) && !isDone(r)).length;
}
