/**
 * Every background job, in one table: its queue and how often BullMQ retries it after a crash.
 * Payloads carry ids only; the handler reloads the row, so a retry sees fresh state. Retry
 * schedules the spec fixes (emails, webhook deliveries) live in the rows themselves
 * (`next_attempt_at`, see due-rows.ts), not in BullMQ attempts.
 *
 * Each job has exactly one `@OnJob(name)` handler, or the application refuses to start.
 */
export const JOBS = {
  'mail.send': { queue: 'mail', attempts: 3 },
  'changelog.mailing': { queue: 'changelog', attempts: 3 },
  'changelog.publish': { queue: 'changelog', attempts: 3 },
  'notifications.release': { queue: 'notifications', attempts: 3 },
  'webhooks.deliver': { queue: 'webhooks', attempts: 3 },
  'revenue.sync': { queue: 'revenue', attempts: 3 },
} as const satisfies Record<string, JobDefinition>;

interface JobDefinition {
  readonly queue: string;
  readonly attempts: number;
}

export type JobName = keyof typeof JOBS;

/** The payload of a job that works on one due row: its id, nothing else. */
export interface DueRowJob {
  id: string;
}

/** The payload of each job: ids only. */
export interface JobPayloads {
  'mail.send': DueRowJob;
  'changelog.mailing': DueRowJob;
  'changelog.publish': DueRowJob;
  'notifications.release': DueRowJob;
  'webhooks.deliver': DueRowJob;
  'revenue.sync': DueRowJob;
}

export const QUEUE_NAMES = [...new Set(Object.values(JOBS).map((job) => job.queue))];
