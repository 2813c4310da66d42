import { Module } from '@nestjs/common';
import { ChangelogReactionSet } from '../changelog/reaction-set.service';
import { ContactsModule } from '../contacts/contacts.module';
import { AudienceResolver } from './sending/audience';
import { DashboardNotificationsController } from './sending/dashboard-notifications.controller';
import { ManagementService } from './sending/management.service';
import { NotificationByIdController } from './sending/notification-by-id.controller';
import { NotificationsController } from './sending/notifications.controller';
import { NotificationQuota } from './sending/quota';
import { NotificationReleases } from './sending/releases';
import { SendService } from './sending/send.service';

/**
 * In-app notifications (spec: Notification, its states, the Notifications endpoints, Notification
 * identity verification, Limits → Notifications): sending and management (sending/), the bell's
 * reads and writes (bell/), the signing secret and settings (identity/), retention.
 */
@Module({
  imports: [ContactsModule],
  controllers: [
    NotificationsController,
    DashboardNotificationsController,
    // Last: `GET /v1/notifications/{notification_id}` would capture every fixed GET path
    // (inbox, unread, settings, …) registered after it.
    NotificationByIdController,
  ],
  providers: [SendService, ManagementService, NotificationQuota, NotificationReleases, AudienceResolver, ChangelogReactionSet],
  exports: [],
})
export class NotificationsModule {}
