import { Module } from '@nestjs/common';
import { ContactsModule } from '../contacts/contacts.module';
import { DashboardRevenueController } from './dashboard-revenue.controller';
import { PaymentOutcomesService } from './payment-outcomes.service';
import { ProcessorClients } from './processor.client';
import { ProcessorKeyBox } from './processor-key-box.service';
import { RevenueConnectionService } from './revenue-connection.service';
import { RevenueController } from './revenue.controller';
import { RevenueFiguresService } from './revenue-figures.service';
import { RevenueRefresh } from './revenue-refresh.service';
import { RevenueSyncRunner } from './revenue-sync-runner.service';
import { RevenueSyncs } from './revenue-syncs.service';
import { ProjectsModule } from '../projects/projects.module';
import { EncryptionModule } from '../infra/encryption/encryption.module';
import { ErasureRegistryModule } from '../infra/erasure/erasure-registry.module';
import { RevenueSyncProcessor } from './revenue-sync.processor';

/** Read-only revenue from a connected payment processor: the connection, its sync, and the figures. */
@Module({
  imports: [ContactsModule, ProjectsModule, EncryptionModule, ErasureRegistryModule],
  controllers: [RevenueController, DashboardRevenueController],
  providers: [
    RevenueSyncProcessor,
    ProcessorClients,
    ProcessorKeyBox,
    RevenueConnectionService,
    RevenueSyncs,
    RevenueSyncRunner,
    RevenueRefresh,
    RevenueFiguresService,
    PaymentOutcomesService,
  ],
  exports: [RevenueConnectionService, PaymentOutcomesService],
})
export class RevenueModule {}
