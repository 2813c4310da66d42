import { Module } from '@nestjs/common';
import { ContactsController } from './contacts.controller';
import { ContactsService } from './contacts.service';
import { DashboardContactsController } from './dashboard-contacts.controller';
import { ErasureService } from './erasure/erasure.service';
import { ErasureRegistryModule } from '../infra/erasure/erasure-registry.module';

@Module({
  imports: [ErasureRegistryModule],
  controllers: [ContactsController, DashboardContactsController],
  providers: [ContactsService, ErasureService],
  exports: [ContactsService],
})
export class ContactsModule {}
