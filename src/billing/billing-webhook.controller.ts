import { Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiEnvelope, ApiErrors } from '../common/http/api-docs';
import { Auth } from '../common/http/route-policy';
import { BillingWebhooksService } from './billing-webhooks.service';
import { BillingWebhookResultDto } from './dto/billing.dto';

/** The payment provider's webhook. No key: the Stripe-Signature over the raw body is the credential. */
@ApiTags('Billing')
@Controller('v1/billing')
export class BillingWebhookController {
  constructor(private readonly webhooks: BillingWebhooksService) {}

  @Post('webhook')
  @HttpCode(200)
  @Auth('none')
  @ApiHeader({ name: 'Stripe-Signature', required: true, description: "The provider's signature of the raw body (t=…,v1=…)." })
  @ApiOperation({
    summary:
      'Receives checkout.session.completed, customer.subscription.updated and customer.subscription.deleted; sets the plan. Each event id applies once; older events never undo newer ones.',
  })
  @ApiEnvelope(BillingWebhookResultDto)
  @ApiErrors('VALIDATION_ERROR', 'BILLING_NOT_CONFIGURED')
  receiveBillingEvent(
    @Req() req: Request & { rawBody?: Buffer },
    @Headers('stripe-signature') signature: string | undefined,
  ): Promise<BillingWebhookResultDto> {
    return this.webhooks.handleWebhook(req.rawBody, signature);
  }
}
