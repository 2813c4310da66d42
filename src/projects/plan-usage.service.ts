import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { PlanLimits, planLimit } from './plans';
import type { ProjectRef } from './project-ref';

type CountedLimit = {
  [K in keyof PlanLimits]: PlanLimits[K] extends number | null ? K : never;
}[keyof PlanLimits];

type UsageCounter = (projectId: string) => Promise<number>;

/**
 * How much of each counted plan limit a project uses. The module that owns a resource registers
 * its counter (the changelog counts published entries); a limit nobody counts yet reads as 0.
 */
@Injectable()
export class PlanUsage {
  private readonly counters = new Map<CountedLimit, UsageCounter>();

  registerCounter(limit: CountedLimit, counter: UsageCounter): void {
    this.counters.set(limit, counter);
  }

  async used(project: ProjectRef, limit: CountedLimit): Promise<number> {
    const counter = this.counters.get(limit);
    return counter ? counter(project.id) : 0;
  }

  /** What is left of a limit, or null when the plan has none. */
  async remaining(project: ProjectRef, limit: CountedLimit): Promise<number | null> {
    const max = planLimit(project.plan, limit);
    if (max === null) return null;
    return Math.max(0, max - (await this.used(project, limit)));
  }

  /** Throws PLAN_LIMIT_REACHED when `adding` more would pass the plan's limit. */
  async assertWithinLimit(project: ProjectRef, limit: CountedLimit, adding = 1, label: string = limit): Promise<void> {
    const left = await this.remaining(project, limit);
    if (left !== null && left < adding) {
      throw new ApiError('PLAN_LIMIT_REACHED', `The ${project.plan} plan allows ${planLimit(project.plan, limit)} ${label}.`);
    }
  }
}
