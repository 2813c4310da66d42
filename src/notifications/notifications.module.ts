import { Module } from '@nestjs/common';
import { BellReadsLimit } from './bell/bell-reads.limit';
import { BellController } from './bell/bell.controller';
import { InboxService } from './bell/inbox.service';
import { ReceiptsService } from './bell/receipts.service';
import { ChangelogBroadcasts } from './changelog-broadcasts.service';
import { IdentityController } from './identity/identity.controller';
import { NotificationSettingsService } from './identity/notification-settings.service';
import { SigningSecretsService } from './identity/signing-secrets.service';
import { NotificationRetention } from './retention/notification-retention.service';

/**
 * In-app notifications (spec: Notification, its states, the Notifications endpoints, Notification
 * identity verification, Limits → Notifications): sending and management (sending/), the bell's
 * reads and writes (bell/), the signing secret and settings (identity/), retention.
 */
@Module({
  imports: [],
  // Controllers with fixed paths (settings, signing-secret, inbox, unread, read-all) come before
  // any with `/v1/notifications/:id`, which Express would otherwise match first.
  controllers: [IdentityController, BellController],
  providers: [
    SigningSecretsService,
    NotificationSettingsService,
    ChangelogBroadcasts,
    NotificationRetention,
    InboxService,
    ReceiptsService,
    BellReadsLimit,
  ],
  exports: [ChangelogBroadcasts],
})
export class NotificationsModule {}
