import { Injectable } from '@nestjs/common';
import { assertPlanAllows, requiredFeatureOf } from '../../projects/requires-feature';
import type { PolicyContext, PolicyStep } from './policy-step';

/**
 * A route marked @RequiresFeature answers 403 PLAN_UPGRADE_REQUIRED to a project whose plan lacks
 * the feature. Callers without a project (account-wide dashboard routes, public ones) pass: the
 * gate is about a project's plan.
 */
@Injectable()
export class PlanGateStep implements PolicyStep {
  run(context: PolicyContext): void {
    const feature = requiredFeatureOf(context.handler);
    if (feature && context.project) assertPlanAllows(context.project, feature);
  }
}
