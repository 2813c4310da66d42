import { Module } from '@nestjs/common';
import { BellReadsLimit } from './bell/bell-reads.limit';
import { BellController } from './bell/bell.controller';
import { InboxService } from './bell/inbox.service';
import { ReceiptsService } from './bell/receipts.service';

/**
 * In-app notifications (spec: Notification, its states, the Notifications endpoints, Notification
 * identity verification, Limits → Notifications): sending and management (sending/), the bell's
 * reads and writes (bell/), the signing secret and settings (identity/), retention.
 */
@Module({
  imports: [],
  // The bell's controller comes first: its fixed paths (inbox, unread, read-all) must be matched
  // before management's `GET /v1/notifications/{id}`, which Express would otherwise try first.
  controllers: [BellController],
  providers: [InboxService, ReceiptsService, BellReadsLimit],
  exports: [],
})
export class NotificationsModule {}
