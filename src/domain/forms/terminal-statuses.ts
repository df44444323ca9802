// The statuses in which a form has ended and has an audit trail to show: the one place that lists
// them, so a status added later (the lifecycle's `declined` and `voided`) is accepted by naming it here.
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['signed', 'declined', 'voided']);

export function isTerminal(status: string): boolean {
  return TERMINAL_STATUSES.has(status);
}
