import type { z } from 'zod';
import type { JobDefinition, JobHandler } from './job.js';
import { activitySweep } from './jobs/activity-sweep.job.js';
import { bulkSendRun } from './jobs/bulk-send-run.job.js';
import { formPurge } from './jobs/form-purge.job.js';
import { formRemind } from './jobs/form-remind.job.js';
import { formSeal } from './jobs/form-seal.job.js';
import { formsExpire } from './jobs/forms-expire.job.js';
import { formsRetention } from './jobs/forms-retention.job.js';
import { idempotencySweep } from './jobs/idempotency-sweep.job.js';
import { messageDeliver } from './jobs/message-deliver.job.js';
import { outboxSweep } from './jobs/outbox-sweep.job.js';
import { webhookDeliver } from './jobs/webhook-deliver.job.js';
import { webhookSweep } from './jobs/webhook-sweep.job.js';

/** Every kind of job there is. A row whose kind is not here is failed as unknown, never guessed at. */
export const JOBS = {
  [messageDeliver.name]: messageDeliver,
  [formsExpire.name]: formsExpire,
  [formSeal.name]: formSeal,
  [webhookDeliver.name]: webhookDeliver,
  [webhookSweep.name]: webhookSweep,
  [outboxSweep.name]: outboxSweep,
  [idempotencySweep.name]: idempotencySweep,
  [formRemind.name]: formRemind,
  [formPurge.name]: formPurge,
  [formsRetention.name]: formsRetention,
  [activitySweep.name]: activitySweep,
  [bulkSendRun.name]: bulkSendRun,
} as const;

export type JobName = keyof typeof JOBS;
export type PayloadOf<N extends JobName> = z.infer<(typeof JOBS)[N]['payload']>;

/** One handler per definition: the composition root cannot leave a job without the code that runs it. */
export type JobHandlers = { readonly [N in JobName]: JobHandler<PayloadOf<N>> };

export function jobDefinition(name: string): JobDefinition | undefined {
  return Object.hasOwn(JOBS, name) ? (JOBS[name as JobName] as JobDefinition) : undefined;
}

export const SCHEDULED_JOBS: readonly JobDefinition[] = Object.values(JOBS).filter((d: JobDefinition) => d.everyMs !== undefined);

/** The kinds of the jobs whose work is in the PDF pool (`pdfWork`), run within a budget of their own. */
export const PDF_JOB_KINDS: readonly string[] = Object.values(JOBS).filter((d: JobDefinition) => d.pdfWork).map((d: JobDefinition) => d.name);
