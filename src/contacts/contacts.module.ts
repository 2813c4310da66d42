import { Module } from '@nestjs/common';
import { ContactsController } from './contacts.controller';
import { ContactsService } from './contacts.service';
import { DashboardContactsController } from './dashboard-contacts.controller';
import { ErasureService } from './erasure/erasure.service';

@Module({
  controllers: [ContactsController, DashboardContactsController],
  providers: [ContactsService, ErasureService],
  exports: [ContactsService],
})
export class ContactsModule {}
