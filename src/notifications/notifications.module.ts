import { Module } from '@nestjs/common';
import { ChangelogBroadcasts } from './changelog-broadcasts.service';
import { IdentityController } from './identity/identity.controller';
import { NotificationSettingsService } from './identity/notification-settings.service';
import { SigningSecretsService } from './identity/signing-secrets.service';
import { NotificationRetention } from './retention/notification-retention.service';

/**
 * In-app notifications (spec: Notification, its states, the Notifications endpoints, Notification
 * identity verification, Limits → Notifications): sending and management (sending/), the bell's
 * reads and writes (bell/), the signing secret and settings (identity/), retention (retention/),
 * and the changelog's broadcasts (changelog-broadcasts.service.ts, exported: the changelog calls it
 * while publishing; this module imports nothing of the changelog).
 */
@Module({
  imports: [],
  // IdentityController first: its fixed paths (settings, signing-secret) must win over `:id` routes.
  controllers: [IdentityController],
  providers: [SigningSecretsService, NotificationSettingsService, ChangelogBroadcasts, NotificationRetention],
  exports: [ChangelogBroadcasts],
})
export class NotificationsModule {}
