import { Foundation1795646006675 } from './migrations/1795646006675-Foundation';
import { Feedback1795646606404 } from './migrations/1795646606404-Feedback';
import { Waitlist1795646984841 } from './migrations/1795646984841-Waitlist';
import { MailHeaders1795651936454 } from './migrations/1795651936454-MailHeaders';
import { IdempotencyAnswers1795689684896 } from './migrations/1795689684896-IdempotencyAnswers';
import { TestModeProjects1795689776164 } from './migrations/1795689776164-TestModeProjects';
import { Changelog1795699080176 } from './migrations/1795699080176-Changelog';
import { Notifications1795701329416 } from './migrations/1795701329416-Notifications';
import { NotificationIdentityRetention1795701627953 } from './migrations/1795701627953-NotificationIdentityRetention';
import { Webhooks1795703955013 } from './migrations/1795703955013-Webhooks';
import { ChangelogEngagement1795708756822 } from './migrations/1795708756822-ChangelogEngagement';
import { DashboardProjects1795708818985 } from './migrations/1795708818985-DashboardProjects';
import { Billing1795708867469 } from './migrations/1795708867469-Billing';
import { CustomDomains1795710057843 } from './migrations/1795710057843-CustomDomains';
import { EmailTemplates1795711033476 } from './migrations/1795711033476-EmailTemplates';
import { IdempotencyRecordProject1795794695849 } from './migrations/1795794695849-IdempotencyRecordProject';
import { EncryptionKeyFingerprints1795794861982 } from './migrations/1795794861982-EncryptionKeyFingerprints';
import { CustomDomainClaims1795795327476 } from './migrations/1795795327476-CustomDomainClaims';
import { Revenue1795809988528 } from './migrations/1795809988528-Revenue';
import { DeliveryAttempts1795820944326 } from './migrations/1795820944326-DeliveryAttempts';
import { CustomDomainRecheck1795909216214 } from './migrations/1795909216214-CustomDomainRecheck';
import { EngagementBuffer1795909525124 } from './migrations/1795909525124-EngagementBuffer';
import { RateLimitCounters1795924881097 } from './migrations/1795924881097-RateLimitCounters';
import { IdempotencySealedAnswers1796014153821 } from './migrations/1796014153821-IdempotencySealedAnswers';

/** Every migration, oldest first. Generated with `npm run migration:generate -- <Name>`, read, then listed here. */
export const MIGRATIONS = [
  Foundation1795646006675,
  Feedback1795646606404,
  Waitlist1795646984841,
  MailHeaders1795651936454,
  IdempotencyAnswers1795689684896,
  TestModeProjects1795689776164,
  Changelog1795699080176,
  Notifications1795701329416,
  NotificationIdentityRetention1795701627953,
  Webhooks1795703955013,
  ChangelogEngagement1795708756822,
  DashboardProjects1795708818985,
  Billing1795708867469,
  CustomDomains1795710057843,
  EmailTemplates1795711033476,
  IdempotencyRecordProject1795794695849,
  EncryptionKeyFingerprints1795794861982,
  CustomDomainClaims1795795327476,
  Revenue1795809988528,
  DeliveryAttempts1795820944326,
  CustomDomainRecheck1795909216214,
  EngagementBuffer1795909525124,
  RateLimitCounters1795924881097,
  IdempotencySealedAnswers1796014153821,
];
