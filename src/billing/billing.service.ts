import { Inject, Injectable } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service';
import { ApiError } from '../common/errors/api-error';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from '../infra/database/database.service';
import { PURCHASABLE_PLANS } from '../projects/plans';
import type { ProjectRef } from '../projects/project-ref';
import { ProjectsService } from '../projects/projects.service';
import { isPurchasablePlan } from './billing-events';
import { BillingProvider, notConfigured } from './billing-provider.client';
import { findBillingAccount } from './billing.queries';
import { BillingDto, BillingSessionDto } from './dto/billing.dto';
import { CreateCheckoutDto, CreatePortalSessionDto } from './dto/create-checkout.dto';

// A subscription in these states already pays for a plan: changes go through the portal.
const LIVE_SUBSCRIPTION = new Set(['active', 'trialing', 'past_due', 'incomplete', 'paused']);

/**
 * Billing for our own plans (issue 14 point 4; spec: INVALID_PLAN, BILLING_NOT_CONFIGURED,
 * NO_BILLING_ACCOUNT, BILLING_PORTAL_UNAVAILABLE).
 *
 * Choices the spec leaves open:
 * - Billing is per project, the one named in X-Service-Project: the plan lives on the project, and
 *   each project has its own customer and subscription at the provider. An account with several
 *   paid projects pays for each.
 * - Checkout is refused (409 BILLING_SUBSCRIPTION_EXISTS) while the project has a live
 *   subscription: a second checkout would charge twice; plan changes and cancellation go through
 *   the portal, whose events reach the webhook like any other.
 * - A missing `plan` is VALIDATION_ERROR; a name other than indie or builder is INVALID_PLAN.
 * - Return addresses must be on a DASHBOARD_ORIGINS origin or on PUBLIC_BASE_URL, so a checkout
 *   link cannot send a paying customer to someone else's site.
 * - Provider failures of checkout answer BILLING_PORTAL_UNAVAILABLE too (the spec names one 502).
 * - The plan changes only when the provider's signed webhook says so (billing-webhooks.service.ts),
 *   never on the browser's return from checkout.
 */
@Injectable()
export class BillingService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
    private readonly provider: BillingProvider,
    private readonly projects: ProjectsService,
    private readonly accounts: AccountsService,
  ) {}

  async getBilling(project: ProjectRef): Promise<BillingDto> {
    const em = this.db.manager;
    // The plan from the row, not the request's cached ProjectRef: a webhook may have just changed it.
    const [plan, account] = await Promise.all([this.projects.currentPlan(em, project.id), findBillingAccount(em, project.id)]);
    return {
      plan,
      billing_configured: this.provider.configured,
      has_billing_account: account !== null,
      subscription_status: account?.subscriptionStatus ?? null,
      purchasable_plans: [...PURCHASABLE_PLANS],
    };
  }

  async createCheckout(project: ProjectRef, input: CreateCheckoutDto): Promise<BillingSessionDto> {
    if (!this.provider.configured) throw notConfigured();
    if (!isPurchasablePlan(input.plan)) {
      throw new ApiError('INVALID_PLAN', `"${input.plan.slice(0, 40)}" is not a plan you can buy; use indie or builder.`, {
        param: 'plan',
      });
    }
    const successUrl = this.returnUrl(input.success_url, 'success_url', '/billing?checkout=success');
    const cancelUrl = this.returnUrl(input.cancel_url, 'cancel_url', '/billing?checkout=cancelled');
    const em = this.db.manager;
    const account = await findBillingAccount(em, project.id);
    if (account?.subscriptionStatus && LIVE_SUBSCRIPTION.has(account.subscriptionStatus)) {
      throw new ApiError('BILLING_SUBSCRIPTION_EXISTS', `The project already has a ${account.subscriptionStatus} subscription.`, {
        param: 'plan',
      });
    }
    const owner = project.accountId ? await this.accounts.findById(em, project.accountId) : null;
    const session = await this.provider.createCheckoutSession({
      projectId: project.id,
      plan: input.plan,
      customerId: account?.customerId ?? null,
      email: owner?.email ?? null,
      successUrl,
      cancelUrl,
    });
    return { url: session.url };
  }

  async createPortalSession(project: ProjectRef, input: CreatePortalSessionDto): Promise<BillingSessionDto> {
    if (!this.provider.configured) throw notConfigured();
    const returnUrl = this.returnUrl(input.return_url, 'return_url', '/billing');
    const account = await findBillingAccount(this.db.manager, project.id);
    if (!account) throw new ApiError('NO_BILLING_ACCOUNT', 'This project has no billing account yet.');
    return this.provider.createPortalSession(account.customerId, returnUrl);
  }

  private returnUrl(given: string | null | undefined, param: string, defaultPath: string): string {
    const origins = new Set([...this.config.dashboardOrigins, new URL(this.config.publicBaseUrl).origin]);
    // Optional fields may also be sent as null (IsOptional lets it through): the default too.
    if (given === undefined || given === null) return `${this.config.dashboardOrigins[0] ?? this.config.publicBaseUrl}${defaultPath}`;
    if (!origins.has(new URL(given).origin)) {
      throw new ApiError('VALIDATION_ERROR', `${param} must be on the dashboard (DASHBOARD_ORIGINS) or on PUBLIC_BASE_URL.`, {
        param,
        remediation: `Use an address on one of: ${[...origins].join(', ')}.`,
      });
    }
    return given;
  }
}
