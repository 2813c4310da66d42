import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { JOBS, JobName, JobPayloads, QUEUE_NAMES } from './job-catalog';
import { JobRegistry } from './job-registry';
import { QueueFactory, QueueLike, WorkerLike, createQueueFactory } from './queue-connections';

export interface EnqueueOptions {
  /** Dedupe key: the row id. A job with this id that is still waiting is not added twice. */
  dedupeId: string;
  /** Run no earlier than this many milliseconds from now. */
  delayMs?: number;
}

const WORKER_CONCURRENCY = 8;

/**
 * Producers for every queue in every process; workers only where WORKERS is on (the API server by
 * default, and `npm run start:worker`). The queue only wakes workers: the rows are the truth, and
 * the sweeper re-enqueues due rows that no job holds.
 */
@Injectable()
export class QueueService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(QueueService.name);
  private readonly factory: QueueFactory;
  private readonly queues = new Map<string, QueueLike>();
  private readonly workers: WorkerLike[] = [];
  private closing = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: JobRegistry,
  ) {
    this.factory = createQueueFactory(config);
    for (const name of QUEUE_NAMES) this.queues.set(name, this.factory.createQueue(name));
  }

  get backend(): 'redis' | 'postgres' {
    return this.factory.backend;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.workers) return;
    for (const name of QUEUE_NAMES) {
      const worker = this.factory.createWorker(name, (job) => this.process(job), WORKER_CONCURRENCY);
      worker.on('failed', (job, error) => this.logger.warn(`job ${job?.name} ${job?.id} failed: ${error.message}`));
      worker.on('error', (error) => this.logger.error(`queue ${name} worker error: ${error.message}`));
      this.workers.push(worker);
    }
    await Promise.all(this.workers.map((worker) => worker.waitUntilReady()));
    this.logger.log(`Workers started on ${QUEUE_NAMES.join(', ')} (${this.factory.backend})`);
  }

  async enqueue<J extends JobName>(job: J, payload: JobPayloads[J], options: EnqueueOptions): Promise<void> {
    // While closing, the row stays due and the next sweeper (here or in another process) wakes it.
    if (this.closing) return;
    const queue = this.queueOf(job);
    await queue.add(job, payload, {
      jobId: `${job}-${options.dedupeId}`,
      delay: Math.max(0, options.delayMs ?? 0),
      attempts: JOBS[job].attempts,
      backoff: { type: 'exponential', delay: 1_000 },
      removeOnComplete: true,
      removeOnFail: true,
    });
  }

  /** Jobs that are waiting, running, or delayed and already due; tests wait for this to reach 0. */
  async pendingJobCount(): Promise<number> {
    let pending = 0;
    const now = Date.now();
    for (const queue of this.queues.values()) {
      const counts = await queue.getJobCounts('waiting', 'active', 'prioritized', 'waiting-children');
      pending += Object.values(counts).reduce((sum, count) => sum + count, 0);
      const delayed = await queue.getDelayed();
      pending += delayed.filter((job) => job.timestamp + (job.delay ?? 0) <= now).length;
    }
    return pending;
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((worker) => worker.close()));
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
    await this.factory.close();
  }

  private queueOf(job: JobName): QueueLike {
    const queue = this.queues.get(JOBS[job].queue);
    if (!queue) throw new Error(`No queue for job ${job}`);
    return queue;
  }

  private async process(job: { name: string; data: unknown; id?: string }): Promise<void> {
    const handler = this.registry.handlerFor(job.name);
    if (!handler) throw new UnrecoverableError(`No handler for job ${job.name}`);
    await handler(job.data);
  }
}
