import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { Request } from 'express';
import type { ProjectRef } from '../projects/project-ref';
import { Caller, DashboardUser, EndUser, callerOf, endUserOf, projectOfCaller } from './caller';

const requestOf = (context: ExecutionContext) => context.switchToHttp().getRequest<Request>();

/** The authenticated caller of this request. */
export const CurrentCaller = createParamDecorator((_: unknown, context: ExecutionContext): Caller => callerOf(requestOf(context)));

/** The project of this request: from the API key, or from X-Service-Project on dashboard routes. */
export const CurrentProject = createParamDecorator((_: unknown, context: ExecutionContext): ProjectRef => {
  const project = projectOfCaller(callerOf(requestOf(context)));
  if (!project) throw new Error('@CurrentProject() used on a route whose auth mode has no project');
  return project;
});

/** The account of a dashboard route (`dashboard_account` or `dashboard` mode). */
export const CurrentAccountId = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const caller = callerOf(requestOf(context));
  if (caller.kind !== 'dashboard_account' && caller.kind !== 'dashboard_project') {
    throw new Error('@CurrentAccountId() used on a route whose auth mode has no account');
  }
  return caller.accountId;
});

/** The signed-in dashboard user (any JWT mode). */
export const CurrentDashboardUser = createParamDecorator((_: unknown, context: ExecutionContext): DashboardUser => {
  const caller = callerOf(requestOf(context));
  if (!('user' in caller)) throw new Error('@CurrentDashboardUser() used on a route without a dashboard JWT');
  return caller.user;
});

/**
 * The end user of a route declared with `@Auth('publishable', { userHash })`: their `user_id`,
 * checked against `user_hash` for browsers. Null only on `endUser: 'optional'` routes called
 * without a `user_id`.
 */
export const CurrentEndUser = createParamDecorator((_: unknown, context: ExecutionContext): EndUser | null =>
  endUserOf(requestOf(context)),
);
