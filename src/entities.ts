import { WebhookDeliveryAttemptEntity } from './webhooks/entities/webhook-delivery-attempt.entity';
import { WebhookDeliveryEntity } from './webhooks/entities/webhook-delivery.entity';
import { WebhookEndpointEntity } from './webhooks/entities/webhook-endpoint.entity';
import { RateLimitCounterEntity } from './infra/rate-limit/entities/rate-limit-counter.entity';
import { BellUserEntity } from './notifications/entities/bell-user.entity';
import { NotificationEntity } from './notifications/entities/notification.entity';
import { NotificationReceiptEntity } from './notifications/entities/notification-receipt.entity';
import { NotificationRecipientEntity } from './notifications/entities/notification-recipient.entity';
import { NotificationReleaseEntity } from './notifications/entities/notification-release.entity';
import { NotificationSigningSecretEntity } from './notifications/entities/notification-signing-secret.entity';
import { NotificationUsageEntity } from './notifications/entities/notification-usage.entity';
import { ChangelogEntryEntity } from './changelog/entities/changelog-entry.entity';
import { ChangelogEntryLabelEntity } from './changelog/entities/changelog-entry-label.entity';
import { ChangelogEntryCountEntity } from './changelog/entities/changelog-entry-count.entity';
import { ChangelogCountDeltaEntity } from './changelog/entities/changelog-count-delta.entity';
import { ChangelogEngagementBatchEntity } from './changelog/entities/changelog-engagement-batch.entity';
import { ChangelogReactionCountEntity } from './changelog/entities/changelog-reaction-count.entity';
import { ChangelogReactionEntity } from './changelog/entities/changelog-reaction.entity';
import { ChangelogReaderEntity } from './changelog/entities/changelog-reader.entity';
import { ChangelogLabelEntity } from './changelog/entities/changelog-label.entity';
import { ChangelogMailingEntity } from './changelog/entities/changelog-mailing.entity';
import { ChangelogPublicationEntity } from './changelog/entities/changelog-publication.entity';
import { ChangelogSubscriberEntity } from './changelog/entities/changelog-subscriber.entity';
import { ChangelogSubscriberLabelEntity } from './changelog/entities/changelog-subscriber-label.entity';
import { ChangelogSubscriberTokenEntity } from './changelog/entities/changelog-subscriber-token.entity';
import { AccountEntity } from './accounts/entities/account.entity';
import { ApiKeyEntity } from './auth/entities/api-key.entity';
import { ContactEntity } from './contacts/entities/contact.entity';
import { ContactErasureEntity } from './contacts/erasure/entities/contact-erasure.entity';
import { EventEntity } from './events/entities/event.entity';
import { FeedbackEntity } from './feedback/entities/feedback.entity';
import { IdempotencyRecordEntity } from './idempotency/entities/idempotency-record.entity';
import { ProjectEntity } from './projects/entities/project.entity';
import { ProjectSlugChangeEntity } from './projects/slug-history/entities/project-slug-change.entity';
import { ProjectSlugHistoryEntity } from './projects/slug-history/entities/project-slug-history.entity';
import { MailMessageEntity } from './infra/mail/entities/mail-message.entity';
import { EncryptionKeyFingerprintEntity } from './infra/encryption/entities/encryption-key-fingerprint.entity';
import { WaitlistCounterEntity } from './waitlist/entities/waitlist-counter.entity';
import { WaitlistEmailTokenEntity } from './waitlist/entities/waitlist-email-token.entity';
import { WaitlistSignupEntity } from './waitlist/entities/waitlist-signup.entity';

/**
 * Every entity of the service: a registry of the application shell (a new module adds its entities
 * here), handed to the database module, so infra/ imports no feature. One explicit list, so the
 * app, the CLI and the migration generator see the same schema, and the drift test compares it
 * with the migrations.
 */
import { BillingAccountEntity } from './billing/entities/billing-account.entity';
import { BillingEventEntity } from './billing/entities/billing-event.entity';
import { CustomDomainEntity } from './custom-domains/entities/custom-domain.entity';
import { EmailTemplateEntity } from './email-templates/entities/email-template.entity';
import { RevenueConnectionEntity } from './revenue/entities/revenue-connection.entity';
import { RevenueCustomerEntity } from './revenue/entities/revenue-customer.entity';
import { RevenueCustomerMrrEntity, RevenueMovementEntity } from './revenue/entities/revenue-customer-mrr.entity';
import { RevenueInvoiceEntity } from './revenue/entities/revenue-invoice.entity';
import { RevenueSubscriptionEntity } from './revenue/entities/revenue-subscription.entity';
import { RevenueSyncEntity } from './revenue/entities/revenue-sync.entity';
export const ENTITIES = [
  AccountEntity,
  ApiKeyEntity,
  BillingAccountEntity,
  BillingEventEntity,
  ChangelogEntryEntity,
  ChangelogEntryLabelEntity,
  ChangelogEntryCountEntity,
  ChangelogCountDeltaEntity,
  ChangelogEngagementBatchEntity,
  ChangelogReaderEntity,
  ChangelogReactionEntity,
  ChangelogReactionCountEntity,
  ChangelogLabelEntity,
  ChangelogMailingEntity,
  ChangelogPublicationEntity,
  ChangelogSubscriberEntity,
  ChangelogSubscriberLabelEntity,
  ChangelogSubscriberTokenEntity,
  ContactEntity,
  ContactErasureEntity,
  CustomDomainEntity,
  EmailTemplateEntity,
  EncryptionKeyFingerprintEntity,
  EventEntity,
  FeedbackEntity,
  IdempotencyRecordEntity,
  MailMessageEntity,
  BellUserEntity,
  NotificationEntity,
  NotificationReceiptEntity,
  NotificationRecipientEntity,
  NotificationReleaseEntity,
  NotificationSigningSecretEntity,
  NotificationUsageEntity,
  RevenueConnectionEntity,
  RevenueCustomerEntity,
  RevenueCustomerMrrEntity,
  RevenueInvoiceEntity,
  RevenueMovementEntity,
  RevenueSubscriptionEntity,
  RevenueSyncEntity,
  ProjectEntity,
  ProjectSlugChangeEntity,
  ProjectSlugHistoryEntity,
  WaitlistCounterEntity,
  RateLimitCounterEntity,
  WaitlistEmailTokenEntity,
  WaitlistSignupEntity,
  WebhookDeliveryAttemptEntity,
  WebhookDeliveryEntity,
  WebhookEndpointEntity,
];
