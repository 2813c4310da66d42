import { ApiProperty } from '@nestjs/swagger';
import { PLAN_NAMES, PURCHASABLE_PLANS, type PlanName } from '../../projects/plans';

export class BillingDto {
  @ApiProperty({ enum: PLAN_NAMES, example: 'indie', description: "The project's plan now." })
  plan: PlanName;

  @ApiProperty({ example: true, description: 'Whether this server sells plans (STRIPE_SECRET_KEY and price ids set).' })
  billing_configured: boolean;

  @ApiProperty({
    example: true,
    description: 'Whether the project has a customer at the payment provider (a completed checkout); the portal needs one.',
  })
  has_billing_account: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'active',
    description:
      "The subscription's status as the provider last reported it (active, trialing, past_due, canceled, …); null before any checkout.",
  })
  subscription_status: string | null;

  @ApiProperty({ enum: PURCHASABLE_PLANS, isArray: true, example: ['indie', 'builder'], description: 'The plans a checkout can buy.' })
  purchasable_plans: string[];
}

export class BillingSessionDto {
  @ApiProperty({ example: 'https://checkout.stripe.com/c/pay/cs_test_a1', description: "The provider's page; send the browser there." })
  url: string;
}

export class BillingWebhookResultDto {
  @ApiProperty({ example: true })
  received: boolean;

  @ApiProperty({
    enum: ['applied', 'duplicate', 'stale', 'ignored'],
    example: 'applied',
    description:
      'applied: the plan or billing state changed; duplicate: this event id was handled before; stale: a newer event was already applied; ignored: an event type or object that concerns no plan.',
  })
  outcome: 'applied' | 'duplicate' | 'stale' | 'ignored';
}
