import { Module } from '@nestjs/common';
import { ContactsModule } from '../contacts/contacts.module';
import { AnalyticsController } from './analytics.controller';
import { AnalyticsService } from './analytics.service';
import { AttributionService } from './attribution.service';
import { RevenueModule } from '../revenue/revenue.module';
import { WaitlistModule } from '../waitlist/waitlist.module';

@Module({
  imports: [ContactsModule, WaitlistModule, RevenueModule],
  controllers: [AnalyticsController],
  providers: [AnalyticsService, AttributionService],
})
export class AnalyticsModule {}
