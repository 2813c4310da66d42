import { SetMetadata } from '@nestjs/common';
import type { JobName } from './job-catalog';

export const JOB_HANDLER = 'launch:job-handler';

/** Marks a provider method as the handler of one job of the catalog. */
export const OnJob = (job: JobName): MethodDecorator => SetMetadata(JOB_HANDLER, job);
