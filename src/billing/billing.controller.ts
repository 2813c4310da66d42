import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject } from '../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../common/http/api-docs';
import { Auth } from '../common/http/route-policy';
import type { ProjectRef } from '../projects/project-ref';
import { BillingService } from './billing.service';
import { BillingDto, BillingSessionDto } from './dto/billing.dto';
import { CreateCheckoutDto, CreatePortalSessionDto } from './dto/create-checkout.dto';

const PROJECT_HEADER = {
  name: 'X-Service-Project',
  required: true,
  description: 'The id of one of your projects; billing is per project.',
};

/** Billing of the project named in X-Service-Project: its plan, checkout and the customer portal. */
@ApiTags('Dashboard: billing')
@Controller('v1/dashboard/billing')
export class BillingController {
  constructor(private readonly billing: BillingService) {}

  @Get()
  @Auth('dashboard')
  @ApiHeader(PROJECT_HEADER)
  @ApiOperation({ summary: "The project's plan, whether it has a billing account, and its subscription status." })
  @ApiEnvelope(BillingDto)
  getBilling(@CurrentProject() project: ProjectRef): Promise<BillingDto> {
    return this.billing.getBilling(project);
  }

  @Post('checkout')
  @HttpCode(200)
  @Auth('dashboard')
  @ApiHeader(PROJECT_HEADER)
  @ApiOperation({
    summary:
      "Opens a checkout at the payment provider for indie or builder; answers the page's url. The plan changes when the provider's webhook confirms the payment.",
  })
  @ApiEnvelope(BillingSessionDto)
  @ApiErrors('VALIDATION_ERROR', 'INVALID_PLAN', 'BILLING_NOT_CONFIGURED', 'BILLING_SUBSCRIPTION_EXISTS', 'BILLING_PORTAL_UNAVAILABLE')
  createCheckout(@CurrentProject() project: ProjectRef, @Body() body: CreateCheckoutDto): Promise<BillingSessionDto> {
    return this.billing.createCheckout(project, body);
  }

  @Post('portal')
  @HttpCode(200)
  @Auth('dashboard')
  @ApiHeader(PROJECT_HEADER)
  @ApiOperation({ summary: "Opens the provider's customer portal (plan changes, cancellation, invoices); answers its url." })
  @ApiEnvelope(BillingSessionDto)
  @ApiErrors('VALIDATION_ERROR', 'BILLING_NOT_CONFIGURED', 'NO_BILLING_ACCOUNT', 'BILLING_PORTAL_UNAVAILABLE')
  createPortalSession(@CurrentProject() project: ProjectRef, @Body() body: CreatePortalSessionDto): Promise<BillingSessionDto> {
    return this.billing.createPortalSession(project, body);
  }
}
