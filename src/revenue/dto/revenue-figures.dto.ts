import { ApiProperty } from '@nestjs/swagger';

export class MrrMovementsDto {
  @ApiProperty({ example: 4900, description: 'MRR of customers who started paying (minor units).' })
  new: number;
  @ApiProperty({ example: 2000, description: 'MRR added by customers who paid more (upgrades, more seats).' })
  expansion: number;
  @ApiProperty({ example: 1000, description: 'MRR lost by customers who pay less but still pay.' })
  contraction: number;
  @ApiProperty({ example: 2900, description: 'MRR lost by customers who stopped paying (at the end of their paid period).' })
  churned: number;
  @ApiProperty({ example: 0, description: 'MRR of customers who paid before, stopped, and pay again.' })
  reactivated: number;
  @ApiProperty({ example: 3000, description: 'new + expansion + reactivated − contraction − churned.' })
  net: number;
}

export class CurrencyFiguresDto {
  @ApiProperty({ example: 'usd', description: 'Lower-case ISO currency code; amounts are in its minor unit.' })
  currency: string;
  @ApiProperty({ example: 12900 })
  mrr: number;
  @ApiProperty({ example: 154800, description: 'mrr × 12.' })
  arr: number;
  @ApiProperty({ example: 4, description: 'Customers with MRR above zero in this currency.' })
  paying_customers: number;
  @ApiProperty({ example: 5, description: 'Subscriptions that count towards MRR (not trialing, not ended).' })
  active_subscriptions: number;
  @ApiProperty({ type: MrrMovementsDto, description: 'Movements within the month.' })
  movements: MrrMovementsDto;
}

export class RevenueFiguresDto {
  @ApiProperty({ example: '2026-11', description: 'The UTC calendar month the movements cover.' })
  month: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2026-11-20T10:05:00.000Z',
    description: 'The sync the figures come from; null before the first one finished.',
  })
  as_of: string | null;
  @ApiProperty({ type: CurrencyFiguresDto, isArray: true, description: 'One entry per currency, by code; currencies are never converted.' })
  currencies: CurrencyFiguresDto[];
}

export class RevenueHistoryDto {
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-11-20T10:05:00.000Z' })
  as_of: string | null;
  @ApiProperty({
    type: RevenueFiguresDto,
    isArray: true,
    description: 'Oldest month first; the current month ends now. MRR is at the end of each month.',
  })
  months: RevenueFiguresDto[];
}

export class SubscriptionItemLineDto {
  @ApiProperty({ example: 'price_1PmMonthly' }) price_id: string;
  @ApiProperty({ example: 3 }) quantity: number;
  @ApiProperty({ type: 'integer', nullable: true, example: 2000 }) unit_amount: number | null;
  @ApiProperty({ enum: ['day', 'week', 'month', 'year', null], nullable: true, example: 'month' }) interval: string | null;
  @ApiProperty({ example: 1 }) interval_count: number;
  @ApiProperty({ type: Number, nullable: true, example: 6000, description: 'Normalised to a month, before discounts; null when excluded.' })
  monthly_amount: number | null;
  @ApiProperty({ enum: ['metered', 'one_time', 'tiered', null], nullable: true, example: null }) excluded: string | null;
}

export class DiscountLineDto {
  @ApiProperty({ example: 'LAUNCH25' }) coupon_id: string;
  @ApiProperty({ type: Number, nullable: true, example: 25 }) percent_off: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: null }) amount_off: number | null;
  @ApiProperty({ enum: ['forever', 'once', 'repeating'], example: 'forever' }) duration: string;
  @ApiProperty({ example: 1500, description: 'What it takes off the month; 0 for a one-time or ended discount.' })
  monthly_amount_off: number;
}

export class SubscriptionLineDto {
  @ApiProperty({ example: 'sub_1PmExample' }) subscription_id: string;
  @ApiProperty({ example: 'cus_PmExample' }) customer_id: string;
  @ApiProperty({ example: 'active' }) status: string;
  @ApiProperty({ example: 'usd' }) currency: string;
  @ApiProperty({ example: 4500, description: 'What this subscription adds to MRR, rounded to the minor unit.' }) mrr: number;
  @ApiProperty({
    enum: ['trial', 'not_active', null],
    nullable: true,
    example: null,
    description: 'Why it adds nothing; null when it counts.',
  })
  excluded_reason: string | null;
  @ApiProperty({ type: SubscriptionItemLineDto, isArray: true, description: 'Each price of the subscription, normalised to a month.' })
  items: SubscriptionItemLineDto[];
  @ApiProperty({ type: DiscountLineDto, isArray: true, description: 'Discounts in the order they are applied.' })
  discounts: DiscountLineDto[];
}

export class CurrencyMrrDto {
  @ApiProperty({ example: 'usd' }) currency: string;
  @ApiProperty({ example: 4500 }) mrr: number;
}

export class CustomerRevenueDto {
  @ApiProperty({ example: 'ct_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' }) contact_id: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-11-20T10:05:00.000Z' }) as_of: string | null;
  @ApiProperty({ type: String, isArray: true, example: ['cus_PmExample'], description: 'Processor customers matched to this contact.' })
  customer_ids: string[];
  @ApiProperty({ type: CurrencyMrrDto, isArray: true, description: "This person's MRR per currency." })
  mrr: CurrencyMrrDto[];
  @ApiProperty({ type: SubscriptionLineDto, isArray: true, description: 'Every subscription of those customers, counted or not.' })
  subscriptions: SubscriptionLineDto[];
}
