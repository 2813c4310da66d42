import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, Provider } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { QUEUE_NAMES } from './job-catalog';
import { JobRegistry } from './job-registry.service';
import { workerOptionsFor } from './queue-backend';

/** The processor of every queue, for QueueService to wait on their workers. */
export const JOB_PROCESSORS = Symbol('JOB_PROCESSORS');

const processorToken = (queue: string) => `launch:job-processor:${queue}`;

/**
 * One processor class per queue, because @Processor binds a class to one queue. The class is made
 * at start because its worker options depend on the configuration (see workerOptionsFor).
 */
function processorClassFor(queue: string, config: AppConfig): new (registry: JobRegistry) => WorkerHost {
  @Processor(queue, workerOptionsFor(config, queue))
  class JobProcessor extends WorkerHost {
    private readonly logger = new Logger(`JobProcessor(${queue})`);

    constructor(private readonly registry: JobRegistry) {
      super();
    }

    async process(job: Job): Promise<void> {
      const handler = this.registry.handlerFor(job.name);
      if (!handler) throw new UnrecoverableError(`No handler for job ${job.name}`);
      await handler(job.data);
    }

    @OnWorkerEvent('failed')
    onFailed(job: Job | undefined, error: Error): void {
      this.logger.warn(`job ${job?.name} ${job?.id} failed: ${error.message}`);
    }

    @OnWorkerEvent('error')
    onError(error: Error): void {
      this.logger.error(`worker error: ${error.message}`);
    }
  }
  return JobProcessor;
}

/**
 * The processors of every queue of the catalog; each dispatches a job by name to its one @OnJob
 * handler. @nestjs/bullmq creates their workers only when BullRegistrar.register() is called
 * (QueueService does, where WORKERS is on).
 */
export function jobProcessorProviders(): Provider[] {
  const processors: Provider[] = QUEUE_NAMES.map((queue) => ({
    provide: processorToken(queue),
    inject: [APP_CONFIG, JobRegistry],
    useFactory: (config: AppConfig, registry: JobRegistry) => new (processorClassFor(queue, config))(registry),
  }));
  const all: Provider = {
    provide: JOB_PROCESSORS,
    inject: QUEUE_NAMES.map(processorToken),
    useFactory: (...instances: WorkerHost[]) => instances,
  };
  return [...processors, all];
}
