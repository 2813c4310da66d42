import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { JOBS, JobName } from './job-catalog';
import { JOB_HANDLER } from './on-job.decorator';

type JobHandler = (payload: unknown) => Promise<void>;

/** Finds every @OnJob handler at start and refuses to start unless each job has exactly one. */
@Injectable()
export class JobRegistry implements OnModuleInit {
  private readonly handlers = new Map<JobName, JobHandler>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    const found = new Map<string, JobHandler[]>();
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const job = this.reflector.get<string | undefined>(JOB_HANDLER, instance[method] as () => unknown);
        if (!job) continue;
        const handler = (instance[method] as JobHandler).bind(instance);
        found.set(job, [...(found.get(job) ?? []), handler]);
      }
    }
    this.adopt(found);
  }

  handlerFor(job: string): JobHandler | undefined {
    return this.handlers.get(job as JobName);
  }

  private adopt(found: Map<string, JobHandler[]>): void {
    const problems: string[] = [];
    for (const job of Object.keys(JOBS) as JobName[]) {
      const handlers = found.get(job) ?? [];
      if (handlers.length !== 1) problems.push(`job "${job}" has ${handlers.length} handlers (needs exactly one)`);
      else this.handlers.set(job, handlers[0]);
    }
    for (const job of found.keys()) if (!(job in JOBS)) problems.push(`handler for unknown job "${job}"`);
    if (problems.length > 0) throw new Error(`Job catalog check failed: ${problems.join('; ')}`);
  }
}
