import { CanActivate, ExecutionContext, Injectable, SetMetadata, applyDecorators } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ApiError } from '../common/errors/api-error';
import { ApiErrors } from '../common/http/api-docs';
import { callerOf } from '../common/http/request-context';
import { Feature, minimumPlanFor, planAllows } from './plans';

const REQUIRED_FEATURE = 'launch:required-feature';

/** The route needs a plan that includes `feature` (PLAN_UPGRADE_REQUIRED otherwise). */
export function RequiresFeature(feature: Feature): MethodDecorator {
  return applyDecorators(SetMetadata(REQUIRED_FEATURE, feature), ApiErrors('PLAN_UPGRADE_REQUIRED'));
}

/** The plan gate: runs after the auth guard, which knows the project. */
@Injectable()
export class PlanGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const feature = this.reflector.get<Feature | undefined>(REQUIRED_FEATURE, context.getHandler());
    if (!feature) return true;
    const project = callerOf(context.switchToHttp().getRequest<Request>()).project;
    if (project && !planAllows(project.plan, feature)) {
      const needed = minimumPlanFor(feature);
      throw new ApiError('PLAN_UPGRADE_REQUIRED', `This needs the ${needed} plan or higher; the project is on ${project.plan}.`);
    }
    return true;
  }
}
