import { AccountEntity } from './auth/entities/account.entity';
import { ApiKeyEntity } from './auth/entities/api-key.entity';
import { ContactEntity } from './contacts/entities/contact.entity';
import { EventEntity } from './events/entities/event.entity';
import { FeedbackEntity } from './feedback/entities/feedback.entity';
import { IdempotencyRecordEntity } from './idempotency/entities/idempotency-record.entity';
import { ProjectEntity } from './projects/entities/project.entity';
import { MailMessageEntity } from './infra/mail/entities/mail-message.entity';
import { WaitlistCounterEntity } from './waitlist/entities/waitlist-counter.entity';
import { WaitlistEmailTokenEntity } from './waitlist/entities/waitlist-email-token.entity';
import { WaitlistSignupEntity } from './waitlist/entities/waitlist-signup.entity';

/**
 * Every entity of the service: a registry of the application shell (a new module adds its entities
 * here), handed to the database module, so infra/ imports no feature. One explicit list, so the
 * app, the CLI and the migration generator see the same schema, and the drift test compares it
 * with the migrations.
 */
export const ENTITIES = [
  AccountEntity,
  ApiKeyEntity,
  ContactEntity,
  EventEntity,
  FeedbackEntity,
  IdempotencyRecordEntity,
  MailMessageEntity,
  ProjectEntity,
  WaitlistCounterEntity,
  WaitlistEmailTokenEntity,
  WaitlistSignupEntity,
];
