import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { ApiErrors } from '../common/http/api-docs';
import { handlerMetadata } from '../common/http/handler-metadata';
import { Feature, minimumPlanFor, planAllows } from './plans';
import type { ProjectRef } from './project-ref';

const REQUIRED_FEATURE = 'launch:required-feature';

/** The route needs a plan that includes `feature` (PLAN_UPGRADE_REQUIRED otherwise); the route-policy guard checks it. */
export function RequiresFeature(feature: Feature): MethodDecorator {
  return applyDecorators(SetMetadata(REQUIRED_FEATURE, feature), ApiErrors('PLAN_UPGRADE_REQUIRED'));
}

/** The feature a route handler needs. */
export const requiredFeatureOf = handlerMetadata<Feature>(REQUIRED_FEATURE);

export function assertPlanAllows(project: ProjectRef, feature: Feature, param?: string): void {
  if (planAllows(project.plan, feature)) return;
  throw new ApiError(
    'PLAN_UPGRADE_REQUIRED',
    `${param ? `${param} needs` : 'This needs'} the ${minimumPlanFor(feature)} plan or higher; the project is on ${project.plan}.`,
    param ? { param } : {},
  );
}
