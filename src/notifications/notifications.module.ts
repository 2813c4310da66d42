import { Module } from '@nestjs/common';
import { ContactsModule } from '../contacts/contacts.module';
import { BellReadsLimit } from './bell/bell-reads-limit.service';
import { BellController } from './bell/bell.controller';
import { BellStateCache } from './bell/bell-state.cache';
import { InboxService } from './bell/inbox.service';
import { ReceiptsService } from './bell/receipts.service';
import { ChangelogBroadcasts } from './changelog-broadcasts.service';
import { IdentityController } from './identity/identity.controller';
import { NotificationSettingsService } from './identity/notification-settings.service';
import { SigningSecretsService } from './identity/signing-secrets.service';
import { NotificationReactionSets } from './reaction-sets.service';
import { NotificationRetention } from './retention/notification-retention.service';
import { AudienceResolver } from './sending/audience-resolver.service';
import { DashboardNotificationsController } from './sending/dashboard-notifications.controller';
import { ManagementService } from './sending/management.service';
import { NotificationByIdController } from './sending/notification-by-id.controller';
import { NotificationsController } from './sending/notifications.controller';
import { NotificationQuota } from './sending/notification-quota.service';
import { NotificationReleases } from './sending/notification-releases.service';
import { SendService } from './sending/send.service';
import { ProjectsModule } from '../projects/projects.module';
import { AuthModule } from '../auth/auth.module';
import { EncryptionModule } from '../infra/encryption/encryption.module';
import { RateLimitModule } from '../infra/rate-limit/rate-limit.module';
import { ErasureRegistryModule } from '../infra/erasure/erasure-registry.module';
import { NotificationReleaseProcessor } from './sending/notification-release.processor';

/**
 * In-app notifications (spec: Notification, its states, the Notifications endpoints, Notification
 * identity verification, Limits → Notifications): sending and management (sending/), the bell's
 * reads and writes (bell/), the signing secret and settings (identity/), retention.
 */
@Module({
  imports: [ContactsModule, ProjectsModule, AuthModule, EncryptionModule, RateLimitModule, ErasureRegistryModule],
  controllers: [
    // Fixed paths (settings, signing-secret, inbox, unread, read-all, usage, audience) first:
    // Express matches in registration order, and `/v1/notifications/{id}` would take them.
    IdentityController,
    BellController,
    NotificationsController,
    DashboardNotificationsController,
    NotificationByIdController,
  ],
  providers: [
    NotificationReleaseProcessor,
    SigningSecretsService,
    NotificationSettingsService,
    ChangelogBroadcasts,
    NotificationRetention,
    InboxService,
    BellStateCache,
    ReceiptsService,
    BellReadsLimit,
    SendService,
    ManagementService,
    NotificationQuota,
    NotificationReleases,
    AudienceResolver,
    NotificationReactionSets,
  ],
  // SendService and SigningSecretsService: the development demo page (src/dev/) sends and signs with them.
  exports: [ChangelogBroadcasts, NotificationReactionSets, SendService, ManagementService, SigningSecretsService],
})
export class NotificationsModule {}
