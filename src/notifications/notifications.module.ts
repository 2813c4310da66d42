import { Module } from '@nestjs/common';

/**
 * In-app notifications (spec: Notification, its states, the Notifications endpoints, Notification
 * identity verification, Limits → Notifications): sending and management (sending/), the bell's
 * reads and writes (bell/), the signing secret and settings (identity/), retention.
 */
@Module({
  imports: [],
  controllers: [],
  providers: [],
  exports: [],
})
export class NotificationsModule {}
