import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import { Database } from '../../infra/database/database.service';
import { PlanUsage } from '../../projects/plan-usage.service';
import { planLimit } from '../../projects/plans';
import type { ProjectRef } from '../../projects/project-ref';
import type { NotificationUsageDto } from './dto/sent-notification.dto';
import { usageMonthOf } from './notification-input';
import { consumeQuota, giveBackQuota, usedThisMonth } from './sending.queries';

/**
 * The monthly send quota (spec: Limits → Notifications): per project and UTC calendar month, a
 * send to one user, a group or everyone counts once; a scheduled send counts in the month it was
 * scheduled (the row keeps that month in `usage_month`), and deleting it before it shows gives
 * it back. The count is a row of notification_usage moved by a conditional increment inside the
 * send's transaction, so concurrent sends can never pass the limit and a failed send uses nothing.
 */
@Injectable()
export class NotificationQuota implements OnModuleInit {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly planUsage: PlanUsage,
  ) {}

  onModuleInit(): void {
    this.planUsage.registerCounter('notificationsPerMonth', (projectId) =>
      usedThisMonth(this.db.manager, projectId, usageMonthOf(this.clock.now())),
    );
  }

  /** Counts one send in `month`, or throws PLAN_LIMIT_REACHED; answers the month's usage after it. */
  async consume(em: EntityManager, project: ProjectRef, month: string): Promise<NotificationUsageDto> {
    const limit = planLimit(project.plan, 'notificationsPerMonth');
    const sent = await consumeQuota(em, project.id, month, limit);
    if (sent === null) {
      throw new ApiError(
        'PLAN_LIMIT_REACHED',
        `The ${project.plan} plan allows ${limit} notification sends per month; ${month} is used up.`,
        {
          remediation: 'Wait for the next UTC month, delete scheduled notifications you no longer need, or upgrade the plan.',
        },
      );
    }
    return { month, sent, limit, remaining: Math.max(0, limit - sent) };
  }

  giveBack(em: EntityManager, projectId: string, month: string): Promise<void> {
    return giveBackQuota(em, projectId, month);
  }

  async usage(project: ProjectRef): Promise<NotificationUsageDto> {
    const month = usageMonthOf(this.clock.now());
    const limit = planLimit(project.plan, 'notificationsPerMonth');
    const sent = await usedThisMonth(this.db.manager, project.id, month);
    return { month, sent, limit, remaining: Math.max(0, limit - sent) };
  }
}
