import { BullRegistrar, WorkerHost, getQueueToken } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, Provider } from '@nestjs/common';
import { PostgresQueueBackend, Queue } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { JOBS, JobName, JobPayloads, QUEUE_NAMES } from './job-catalog';
import { JOB_PROCESSORS } from './job.processor';
import type { QueueBackend } from './queue-backend';

interface EnqueueOptions {
  /** Dedupe key: the row id. A job with this id that is still waiting is not added twice. */
  dedupeId: string;
  /** Run no earlier than this many milliseconds from now. */
  delayMs?: number;
}

/** Every queue of the catalog by name, as @nestjs/bullmq registered them. */
const JOB_QUEUES = Symbol('JOB_QUEUES');

export const jobQueuesProvider: Provider = {
  provide: JOB_QUEUES,
  inject: QUEUE_NAMES.map((name) => getQueueToken(name)),
  useFactory: (...queues: Queue[]) => new Map(queues.map((queue) => [queue.name, queue])),
};

/** How long a queue's connection may take to close at shutdown before it is left behind. */
const QUEUE_CLOSE_DEADLINE_MS = 2_000;

const jobIdOf = (job: JobName, dedupeId: string) => `${job}-${dedupeId}`;

/** A job in one of these states is pending (tests wait for none); a delayed one is once it is due. */
const PENDING_STATES = ['waiting', 'active', 'prioritized', 'waiting-children'] as const;

/** Delayed jobs already due by the wall clock: BullMQ schedules delays in real time, not on the service's Clock. */
async function dueDelayedJobs(queue: Queue, nowMs: number) {
  return (await queue.getDelayed()).filter((job) => job.timestamp + (job.delay ?? 0) <= nowMs);
}

/** Waits for `work` at most `ms`; the work itself goes on, and its late failure is ignored. */
function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  work.catch(() => undefined);
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Producers for every queue in every process; workers only where WORKERS is on (the API server by
 * default, and `npm run start:worker`). The queue only wakes workers: the rows are the truth, and
 * the sweeper re-enqueues due rows that no job holds.
 */
@Injectable()
export class QueueService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(QueueService.name);
  private closing = false;
  private closed: Promise<void> | null = null;
  private workersStarted = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOB_QUEUES) private readonly queues: Map<string, Queue>,
    @Inject(JOB_PROCESSORS) private readonly processors: WorkerHost[],
    private readonly registrar: BullRegistrar,
  ) {
    // A queue whose backend is unreachable emits 'error' on every reconnect; say it once per cause.
    let lastError = '';
    for (const queue of queues.values()) {
      queue.on('error', (error: Error) => {
        if (error.message === lastError) return;
        lastError = error.message;
        this.logger.warn(`queue ${queue.name}: ${error.message}`);
      });
    }
  }

  /** What the queues really run on (the backend is a process-wide BullMQ default, see queue-backend.ts). */
  get backend(): QueueBackend {
    const [queue] = this.queues.values();
    return queue.backend instanceof PostgresQueueBackend ? 'postgres' : 'redis';
  }

  /** After JobRegistry has checked the catalog (onModuleInit), so no worker runs without its handlers. */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.workers) return;
    this.registrar.register();
    this.workersStarted = true;
    await Promise.all(this.processors.map((processor) => processor.worker.waitUntilReady()));
    this.logger.log(`Workers started on ${QUEUE_NAMES.join(', ')} (${this.backend})`);
  }

  /**
   * Adds the job, waiting at most REDIS_COMMAND_TIMEOUT_MS: a request's after-commit enqueue must
   * not hang on a silent queue backend. A job that was not added is not lost: its row stays due
   * and the sweeper wakes it.
   */
  async enqueue<J extends JobName>(job: J, payload: JobPayloads[J], options: EnqueueOptions): Promise<void> {
    // While closing, the row stays due and the next sweeper (here or in another process) wakes it.
    if (this.closing) return;
    const adding = this.queueOf(job).add(job, payload, {
      jobId: jobIdOf(job, options.dedupeId),
      delay: Math.max(0, options.delayMs ?? 0),
      attempts: JOBS[job].attempts,
      backoff: { type: 'exponential', delay: 1_000 },
      removeOnComplete: true,
      removeOnFail: true,
    });
    await withDeadline(adding, this.config.deadlines.redisCommandMs, `enqueue of ${job} ${options.dedupeId}`);
  }

  /**
   * For a row that is due now: adds its job, or runs at once a delayed job that already holds the
   * row's job id. That delay was computed when the row was written; a clock that moved since
   * (backwards, or an adjusted test clock) must not keep a due row waiting.
   */
  async enqueueDue<J extends JobName>(job: J, payload: JobPayloads[J], dedupeId: string): Promise<void> {
    if (this.closing) return;
    const existing = await this.queueOf(job).getJob(jobIdOf(job, dedupeId));
    if (!existing) return this.enqueue(job, payload, { dedupeId });
    // Throws when the job left the delayed state meanwhile, which is what we wanted anyway.
    if (await existing.isDelayed()) await existing.promote().catch(() => undefined);
  }

  /**
   * Jobs that are waiting, running, or delayed and already due; tests wait for this to reach 0.
   * "Due" is judged by the wall clock on purpose: BullMQ schedules delays in real time, not on
   * the service's Clock.
   */
  async pendingJobCount(): Promise<number> {
    let pending = 0;
    const now = Date.now();
    for (const queue of this.queues.values()) {
      const counts = await queue.getJobCounts(...PENDING_STATES);
      pending += Object.values(counts).reduce((sum, count) => sum + count, 0);
      pending += (await dueDelayedJobs(queue, now)).length;
    }
    return pending;
  }

  /** The jobs pendingJobCount counts, as `queue/job-id (state)`: for a test that waited too long, to say on what. */
  async pendingJobs(): Promise<string[]> {
    const pending: string[] = [];
    const now = Date.now();
    for (const queue of this.queues.values()) {
      for (const job of await queue.getJobs([...PENDING_STATES])) pending.push(`${queue.name}/${job.id} (${await job.getState()})`);
      for (const job of await dueDelayedJobs(queue, now)) pending.push(`${queue.name}/${job.id} (delayed, due)`);
    }
    return pending;
  }

  /**
   * From here on nothing is added (the rows stay due for the next sweeper), and running jobs finish
   * now, while the database is surely open: @nestjs/bullmq would close the workers in
   * onApplicationShutdown, whose order against DatabaseModule's depends on the order of imports.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.close();
  }

  /** Stops adding, lets running jobs finish, then closes the queues' connections (bootstrap.ts orders it). */
  close(): Promise<void> {
    this.closed ??= (async () => {
      this.closing = true;
      if (this.workersStarted) await Promise.all(this.processors.map((processor) => processor.worker.close()));
      // A producer connection that does not answer QUIT in time (Redis silent, or reconnecting after
      // an outage) must not hold the shutdown up or fail it: the process is stopping, and the rows
      // its jobs would have woken stay due for the sweepers.
      const deadline = Math.max(QUEUE_CLOSE_DEADLINE_MS, this.config.deadlines.redisCommandMs * 2);
      await Promise.all(
        [...this.queues.values()].map((queue) =>
          withDeadline(queue.close(), deadline, `close of queue ${queue.name}`).catch((error: Error) =>
            this.logger.warn(`${error.message}; leaving it`),
          ),
        ),
      );
    })();
    return this.closed;
  }

  private queueOf(job: JobName): Queue {
    const queue = this.queues.get(JOBS[job].queue);
    if (!queue) throw new Error(`No queue for job ${job}`);
    return queue;
  }
}
