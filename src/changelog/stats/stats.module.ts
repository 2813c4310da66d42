import { Module } from '@nestjs/common';
import { RevenueModule } from '../../revenue/revenue.module';
import { EntryStatsService } from './entry-stats.service';
import { StatsController } from './stats.controller';

/** Changelog numbers (spec: Per-entry numbers, After reading): per entry, latest entries, after reading. */
@Module({
  imports: [RevenueModule],
  controllers: [StatsController],
  providers: [EntryStatsService],
  exports: [EntryStatsService],
})
export class ChangelogStatsModule {}
