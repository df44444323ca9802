import type { FormStatus } from '../api';

// A form's or a recipient's status as a coloured tag with its word (colour is never the only sign).

const TONE: Record<string, string> = {
  draft: 'neutral', waiting: 'neutral', queued: 'neutral', pending: 'neutral',
  sent: 'info', delivered: 'info',
  viewed: 'warn',
  signed: 'good', approved: 'good', succeeded: 'good',
  declined: 'bad', voided: 'bad', expired: 'bad', failed: 'bad', disabled: 'bad',
  enabled: 'good',
};

export function StatusTag({ status }: { status: FormStatus | string }) {
  return <span className={`status-tag ${TONE[status] ?? 'neutral'}`} data-status={status}>{status}</span>;
}
